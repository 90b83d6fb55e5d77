/** Internals of the topology module. Not API: may change in any release. */
package io.jumpgate.topology.internal;
