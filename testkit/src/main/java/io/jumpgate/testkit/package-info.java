/**
 * The Jumpgate testkit: {@link io.jumpgate.testkit.LocalCluster}, a real local cluster (etcd and
 * redis-server processes on 127.0.0.1, the shard map in etcd) with the faults a test needs, and
 * {@link io.jumpgate.testkit.JumpgateTest}, a JUnit 5 extension that injects the cluster and a
 * ready {@link io.jumpgate.driver.JumpgateClient}. Add it in test scope; see docs/testkit.md.
 *
 * <p>API: this package is the promise, binary-compatible across minor versions. {@code
 * io.jumpgate.testkit.internal} may change in any release.
 */
package io.jumpgate.testkit;
