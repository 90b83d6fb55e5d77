/**
 * The contracts that Jumpgate's modules and its users plug into.
 *
 * <p>This package depends on the JDK only, so a server, a tool or another SDK can implement these
 * contracts without pulling in the driver. Types here are public API: they stay binary compatible
 * across minor releases. Everything in a package named {@code internal} may change at any time.
 */
package io.jumpgate.spi;
