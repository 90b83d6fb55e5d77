package example.catalog;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/** Prices from a slow catalogue, cached in Redis by Boot's RedisCacheManager. */
@Service
public class Prices {
  private final AtomicInteger catalogueCalls = new AtomicInteger();

  @Cacheable("prices")
  public String price(String sku) {
    catalogueCalls.incrementAndGet();
    return "EUR " + (sku.length() * 7) + ".00";
  }

  @CacheEvict("prices")
  public void forget(String sku) {}

  public int catalogueCalls() {
    return catalogueCalls.get();
  }
}
