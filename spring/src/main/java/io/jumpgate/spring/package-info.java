/**
 * Spring Boot auto-configuration for the Jumpgate driver: {@link
 * io.jumpgate.spring.JumpgateAutoConfiguration} makes a {@code JumpgateClient} and its String
 * command views from the {@code jumpgate.*} properties ({@link
 * io.jumpgate.spring.JumpgateProperties}), {@link io.jumpgate.spring.JumpgateClientCustomizer}
 * beans change what properties do not cover, and {@link io.jumpgate.spring.JumpgateHealthIndicator}
 * reports the client's health to the actuator.
 *
 * <p>Types in this package are public API and stay binary compatible across minor releases; {@code
 * io.jumpgate.spring.internal} is not API. See docs/spring.md.
 */
package io.jumpgate.spring;
