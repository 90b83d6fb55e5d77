package io.jumpgate.spring;

import io.jumpgate.driver.JumpgateOptions;

/**
 * Changes the options of the auto-configured {@code JumpgateClient} beyond what the {@code
 * jumpgate.*} properties cover, like Spring Boot's Lettuce customizers: shared Lettuce {@code
 * ClientResources}, a custom topology source (with neither {@code jumpgate.etcd.endpoints} nor
 * {@code jumpgate.topology-file} set), or any option computed at run time.
 *
 * <pre>{@code
 * @Bean
 * JumpgateClientCustomizer sharedResources(ClientResources resources) {
 *   return options -> options.clientResources(resources);
 * }
 * }</pre>
 *
 * <p>Every customizer bean is called once, in {@link org.springframework.core.annotation.Order}
 * order, after the properties were applied and before the options are built, so a customizer
 * overrides a property. The starter's own customizer (the application's {@code MeterRegistry}) runs
 * first.
 */
@FunctionalInterface
public interface JumpgateClientCustomizer {

  /** Changes {@code options}; called on the thread that creates the client. */
  void customize(JumpgateOptions.Builder options);
}
