/**
 * The testkit's internals: finding binaries, free ports, starting and probing processes, writing
 * the map. Not an API: may change in any release.
 */
package io.jumpgate.testkit.internal;
