package example.shop;

import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/** Stock counts in Redis, through Boot's StringRedisTemplate. */
@Service
public class Stock {
  private final StringRedisTemplate redis;

  public Stock(StringRedisTemplate redis) {
    this.redis = redis;
  }

  public void put(String sku, long count) {
    redis.opsForValue().set("stock:" + sku, Long.toString(count));
  }

  public long take(String sku) {
    return redis.opsForValue().decrement("stock:" + sku);
  }

  public List<String> counts(List<String> skus) {
    return redis.opsForValue().multiGet(skus.stream().map(sku -> "stock:" + sku).toList());
  }

  public void describe(String sku, String name, String color) {
    redis.opsForHash().put("product:" + sku, "name", name);
    redis.opsForHash().put("product:" + sku, "color", color);
  }

  public Object name(String sku) {
    return redis.opsForHash().get("product:" + sku, "name");
  }
}
