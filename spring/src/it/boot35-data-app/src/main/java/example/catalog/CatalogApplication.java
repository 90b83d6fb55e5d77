package example.catalog;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/** A Spring Boot 3.5 application on Spring Data Redis: no Jumpgate type in its code. */
@SpringBootApplication
@EnableCaching
public class CatalogApplication {

  /** The messages received on the {@code catalog-news} channel, in order. */
  @Bean
  List<String> news() {
    return new CopyOnWriteArrayList<>();
  }

  @Bean
  RedisMessageListenerContainer newsListener(
      RedisConnectionFactory connectionFactory, List<String> news) {
    RedisMessageListenerContainer container = new RedisMessageListenerContainer();
    container.setConnectionFactory(connectionFactory);
    container.addMessageListener(
        (message, pattern) -> news.add(new String(message.getBody())),
        new ChannelTopic("catalog-news"));
    return container;
  }

  public static void main(String[] args) {
    SpringApplication.run(CatalogApplication.class, args);
  }
}
