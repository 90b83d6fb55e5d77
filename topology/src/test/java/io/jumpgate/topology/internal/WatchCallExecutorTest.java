package io.jumpgate.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WatchCallExecutorTest {

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          return new byte[0];
        }
      };

  /** A channel that records the call options of each call it is asked for. */
  private static final class RecordingChannel extends Channel {
    final List<CallOptions> options = new ArrayList<>();

    @Override
    public <RequestT, ResponseT> ClientCall<RequestT, ResponseT> newCall(
        MethodDescriptor<RequestT, ResponseT> method, CallOptions callOptions) {
      options.add(callOptions);
      return null;
    }

    @Override
    public String authority() {
      return "etcd";
    }
  }

  private static MethodDescriptor<byte[], byte[]> method(String fullName) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNKNOWN)
        .setFullMethodName(fullName)
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }

  @Test
  void should_run_the_watch_calls_callbacks_on_the_given_executor() throws Exception {
    // Given an interceptor for a single thread
    ExecutorService thread = Executors.newSingleThreadExecutor(task -> new Thread(task, "mine"));
    try {
      RecordingChannel channel = new RecordingChannel();
      WatchCallExecutor interceptor = new WatchCallExecutor(thread);

      // When gRPC makes a watch call through it
      interceptor.interceptCall(
          method(WatchCallExecutor.WATCH_METHOD), CallOptions.DEFAULT, channel);

      // Then the call's executor runs its tasks on that thread
      assertThat(channel.options).hasSize(1);
      assertThat(channel.options.get(0).getExecutor()).as("watch call executor").isNotNull();
      AtomicReference<String> ranOn = new AtomicReference<>();
      CountDownLatch ran = new CountDownLatch(1);
      channel
          .options
          .get(0)
          .getExecutor()
          .execute(
              () -> {
                ranOn.set(Thread.currentThread().getName());
                ran.countDown();
              });
      assertThat(ran.await(5, TimeUnit.SECONDS)).as("the callback ran within 5 s").isTrue();
      assertThat(ranOn.get()).isEqualTo("mine");
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void should_leave_every_other_call_on_grpcs_executor() {
    // Given an interceptor
    RecordingChannel channel = new RecordingChannel();
    WatchCallExecutor interceptor = new WatchCallExecutor(Runnable::run);

    // When gRPC makes a range, a put and a lease keep-alive call through it
    for (String name :
        List.of(
            "etcdserverpb.KV/Range", "etcdserverpb.KV/Put", "etcdserverpb.Lease/LeaseKeepAlive")) {
      interceptor.interceptCall(method(name), CallOptions.DEFAULT, channel);
    }

    // Then none of them gets an executor: gRPC's own stays in charge
    assertThat(channel.options).hasSize(3).allSatisfy(o -> assertThat(o.getExecutor()).isNull());
  }

  @Test
  void should_run_callbacks_elsewhere_once_the_executor_is_shut_down() throws Exception {
    // Given an interceptor whose executor was shut down (the source closed)
    ExecutorService thread = Executors.newSingleThreadExecutor();
    thread.shutdown();
    RecordingChannel channel = new RecordingChannel();
    new WatchCallExecutor(thread)
        .interceptCall(method(WatchCallExecutor.WATCH_METHOD), CallOptions.DEFAULT, channel);

    // When gRPC hands the call a callback (the cancellation of the last watch)
    CountDownLatch ran = new CountDownLatch(1);
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    channel
        .options
        .get(0)
        .getExecutor()
        .execute(
            () -> {
              ranOn.set(Thread.currentThread());
              ran.countDown();
            });

    // Then it runs anyway, not on the caller's thread (Netty's event loop in gRPC) and with no
    // exception thrown back to it
    assertThat(ran.await(5, TimeUnit.SECONDS)).as("the callback ran within 5 s").isTrue();
    assertThat(ranOn.get()).isNotSameAs(Thread.currentThread());
  }
}
