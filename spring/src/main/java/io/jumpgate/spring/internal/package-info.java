/**
 * Internals of the Spring Boot starter: the mapping of properties to driver options, the health
 * check, the dependency check and the failure analyzer. Not API: may change in any release.
 */
package io.jumpgate.spring.internal;
