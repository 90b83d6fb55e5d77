package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keeps the three views in step: every asynchronous command has a blocking and a reactive mirror
 * with the same name and parameters and the matching answer type, and no view has a command the
 * others lack. (tools/generate-command-views.py writes the mirrors from the asynchronous
 * interfaces; this test catches a mirror that was not regenerated or was edited by hand.)
 */
class CommandViewsParityTest {

  @Test
  void should_mirror_every_async_command_in_the_blocking_view() throws Exception {
    List<String> problems = new ArrayList<>();
    for (Method async : JumpgateAsyncCommands.class.getMethods()) {
      Method sync = find(JumpgateCommands.class, async, problems);
      if (sync == null) {
        continue;
      }
      Type answer = answerType(async);
      if (!sync.getGenericReturnType().getTypeName().equals(answer.getTypeName())) {
        problems.add(
            describe(async)
                + ": blocking returns "
                + sync.getGenericReturnType()
                + ", not "
                + answer);
      }
    }
    assertThat(JumpgateCommands.class.getMethods())
        .hasSameSizeAs(JumpgateAsyncCommands.class.getMethods());
    assertThat(problems).isEmpty();
  }

  @Test
  void should_mirror_every_async_command_in_the_reactive_view() throws Exception {
    List<String> problems = new ArrayList<>();
    for (Method async : JumpgateAsyncCommands.class.getMethods()) {
      Method reactive = find(JumpgateReactiveCommands.class, async, problems);
      if (reactive == null) {
        continue;
      }
      Type answer = answerType(async);
      Type returned = reactive.getGenericReturnType();
      String expected;
      if (answer instanceof ParameterizedType collection
          && (collection.getRawType() == List.class
              || collection.getRawType() == java.util.Set.class)) {
        expected =
            Flux.class.getName() + "<" + collection.getActualTypeArguments()[0].getTypeName() + ">";
      } else {
        expected = Mono.class.getName() + "<" + answer.getTypeName() + ">";
      }
      if (!returned.getTypeName().equals(expected)) {
        problems.add(describe(async) + ": reactive returns " + returned + ", not " + expected);
      }
    }
    assertThat(JumpgateReactiveCommands.class.getMethods())
        .hasSameSizeAs(JumpgateAsyncCommands.class.getMethods());
    assertThat(problems).isEmpty();
  }

  @Test
  void should_return_a_completion_stage_from_every_async_command() {
    for (Method async : JumpgateAsyncCommands.class.getMethods()) {
      assertThat(CompletionStage.class.isAssignableFrom(async.getReturnType()))
          .as(describe(async))
          .isTrue();
    }
  }

  private static Method find(Class<?> view, Method async, List<String> problems) {
    try {
      return view.getMethod(async.getName(), async.getParameterTypes());
    } catch (NoSuchMethodException e) {
      problems.add(view.getSimpleName() + " lacks " + describe(async));
      return null;
    }
  }

  private static Type answerType(Method async) {
    return ((ParameterizedType) async.getGenericReturnType()).getActualTypeArguments()[0];
  }

  private static String describe(Method method) {
    return method.getName() + Arrays.toString(method.getParameterTypes());
  }
}
