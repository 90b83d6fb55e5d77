/**
 * The Jumpgate driver: a Redis-protocol client that routes every command on the client, straight to
 * the node that leads the key's shard.
 *
 * <p>Start with {@link io.jumpgate.driver.JumpgateClient#create(JumpgateOptions)} and {@link
 * io.jumpgate.driver.JumpgateClient#connect()}. Types in this package are public API and stay
 * binary compatible across minor releases; {@code io.jumpgate.driver.internal} is not API.
 */
package io.jumpgate.driver;
