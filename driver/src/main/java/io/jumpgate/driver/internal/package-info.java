/** Internals of the driver. Not API: may change in any release. */
package io.jumpgate.driver.internal;
