/** Internals of the routing module. Not API: these types may change or disappear in any release. */
package io.jumpgate.routing.internal;
