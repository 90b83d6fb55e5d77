package io.jumpgate.cli;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.spi.JumpgateException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Stack;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate exec}: runs Redis commands through the driver, as an application would, and
 * prints each reply as redis-cli does. One command from the command line, or with none, one command
 * per line of stdin (redis-cli's quoting). With {@code --trace}, each reply is preceded by where
 * the command went: {@code # shard=<n> node=<id> addr=<host:port> attempts=<k>}, one line per node
 * for a multi-key or broadcast command.
 *
 * <p>How each command is run (typed driver methods, refusals, {@code dispatch}) is {@link
 * ExecCommandTable}'s and {@link ExecRunner}'s; the line syntax is {@link CommandLineTokens}'; the
 * reply format is {@link ReplyPrinter}'s.
 *
 * <p>Everything from COMMAND on is the command: options go before it, and a command's arguments may
 * start with '-'. The Redis password (from {@code --redis-password} or {@code
 * JUMPGATE_REDIS_PASSWORD}) is never printed: messages are scrubbed of it.
 *
 * <p>stdin is {@link System#in}, or the stream given to {@link #ExecCommand(InputStream)} (tests
 * and embedding). Threading: picocli fills one instance per invocation; use it from one thread,
 * once.
 */
@Command(
    name = "exec",
    description = {
      "Runs Redis commands through the Jumpgate driver and prints each reply as redis-cli does.",
      "",
      "Each command goes where an application's would: a key's command to the leader of the"
          + " key's shard; MGET, MSET, DEL, UNLINK, EXISTS and TOUCH split over the nodes; PING,"
          + " DBSIZE, KEYS, SCAN, FLUSHDB, FLUSHALL and INFO to every node (PING and INFO answer"
          + " per node; SCAN takes and returns the cluster-wide cursor <node>:<cursor>); EVAL and"
          + " EVALSHA to the shard of their keys (numkeys of them, at least one). Commands without"
          + " a key (CONFIG, CLIENT, TIME, ...) and commands that change the connection's state"
          + " (MULTI, WATCH, SUBSCRIBE, SELECT, AUTH, ...) are refused, and so is a command whose"
          + " keys are on different shards (CROSSSHARD).",
      "",
      "With no COMMAND, commands are read from stdin, one per line, split as redis-cli does:"
          + " \"double quotes\" with \\n \\r \\t \\\" \\\\ \\xHH escapes, 'single quotes' with \\'."
          + " Blank lines and lines starting with # are skipped; quit or exit ends the input.",
      "",
      "Options go before COMMAND: everything from COMMAND on is the command, so its arguments"
          + " may start with '-' (INCRBY counter -5)."
    },
    footer = {
      "",
      "Output (stdout): one answer per command, as redis-cli prints on a terminal: OK, (nil),"
          + " (integer) 3, \"a\" (bytes outside printable ASCII as \\xHH), 1) \"a\", (empty"
          + " array), 1# \"node\" => PONG, (error) <message>. A server's error reply, a refused"
          + " command and a command the driver could not deliver all print (error) <message>.",
      "--trace: before each answer, one line per node the command went to:",
      "  # shard=<n> node=<id> addr=<host:port> attempts=<k>",
      "shard=- for a broadcast part (sent to a chosen node, not routed by a shard),"
          + " shard=3,7 for a fan-out part (the shards of its keys that the node leads), and"
          + " ' failed' at the end of a part that got an error.",
      "",
      "Exit code: with COMMAND, 0 when the reply is not an error, 1 when it is an (error) of any"
          + " kind; from stdin, 0 when every command got an answer from the cluster (error"
          + " replies such as WRONGTYPE included), 1 when a line could not be parsed, a command"
          + " was refused, or the driver could not deliver one. 2: usage error.",
      "",
      "Examples:",
      "  jumpgate exec --etcd http://127.0.0.1:2379 SET user:42 Ada",
      "  jumpgate exec --etcd http://127.0.0.1:2379 --trace MGET user:1 user:2 user:3",
      "  printf 'SET k \"a b\"\\nGET k\\n' | jumpgate exec --topology-file map.json",
      "  JUMPGATE_REDIS_PASSWORD=... jumpgate exec --redis-user app --etcd URL DBSIZE",
      "  jumpgate exec --redis-tls --redis-cacert ca.pem --redis-cert app.pem --redis-key"
          + " app-key.pem --etcd URL GET user:42"
    })
public final class ExecCommand implements Callable<Integer> {

  /** Default Redis ACL user. */
  static final String REDIS_USER_VARIABLE = "JUMPGATE_REDIS_USER";

  /** Default Redis password. */
  static final String REDIS_PASSWORD_VARIABLE = "JUMPGATE_REDIS_PASSWORD";

  /**
   * The deadline of each command (each part of a fan-out or broadcast), retries included, unless
   * {@code --command-timeout} says otherwise: longer than the driver's 2 s, since a CLI's first
   * command also pays for connecting and for warming up a fresh JVM.
   */
  static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  /**
   * How much longer than the topology timeout the driver waits, so etcd's own error comes first.
   */
  private static final Duration START_GRACE = Duration.ofSeconds(2);

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Mixin private TopologyFileOption file;

  @Option(
      names = "--redis-user",
      paramLabel = "NAME",
      description = "Redis ACL user (env " + REDIS_USER_VARIABLE + "); needs a password.")
  private String redisUser;

  @Option(
      names = "--redis-password",
      paramLabel = "PASSWORD",
      description =
          "Redis password, of --redis-user or of the default user (env "
              + REDIS_PASSWORD_VARIABLE
              + ", preferred: other users can see a command line). Never printed.")
  private String redisPassword;

  @Option(
      names = "--redis-tls",
      description =
          "Connect to every node with TLS (nodes marked \"tls\":true in the map always are).")
  private boolean redisTls;

  @Option(
      names = "--redis-cacert",
      paramLabel = "FILE",
      description =
          "PEM file of the CA that signed the nodes' certificates (default: the JDK's CAs).")
  private Path redisCaCertificate;

  @Option(
      names = "--redis-cert",
      paramLabel = "FILE",
      description =
          "PEM client certificate to present to nodes that require one (tls-auth-clients);"
              + " with --redis-key.")
  private Path redisClientCertificate;

  @Option(
      names = "--redis-key",
      paramLabel = "FILE",
      description = "Unencrypted PKCS#8 PEM private key of --redis-cert.")
  private Path redisClientKey;

  @Option(
      names = "--command-timeout",
      paramLabel = "DURATION",
      description =
          "Deadline of each command, retries included, e.g. 500ms, 5s (default: 5s). A fan-out or"
              + " broadcast gives it to each node's part.")
  private String commandTimeout;

  @Option(
      names = "--trace",
      description =
          "Before each reply, print where the command went: # shard=<n> node=<id>"
              + " addr=<host:port> attempts=<k>, one line per node.")
  private boolean trace;

  @Parameters(
      paramLabel = "COMMAND",
      arity = "0..*",
      preprocessor = RestOfLine.class,
      description =
          "The command and its arguments, e.g. SET user:42 Ada. Without it, commands are read"
              + " from stdin.")
  private List<String> command = new ArrayList<>();

  private final InputStream input;

  /** Reads commands from {@link System#in} when none is given. */
  public ExecCommand() {
    this(System.in);
  }

  /** Reads commands from {@code input} when none is given on the command line. */
  public ExecCommand(InputStream input) {
    this.input = Objects.requireNonNull(input, "input");
  }

  /**
   * Takes everything from the first positional argument on as the command, so that a command's
   * arguments may look like options ({@code INCRBY counter -5}, {@code SET k --trace}).
   */
  static final class RestOfLine implements IParameterPreprocessor {
    @Override
    public boolean preprocess(
        Stack<String> arguments, CommandSpec spec, ArgSpec argument, Map<String, Object> info) {
      List<String> rest = new ArrayList<>();
      while (!arguments.isEmpty()) {
        rest.add(arguments.pop());
      }
      argument.setValue(rest);
      return true;
    }
  }

  @Override
  public Integer call() {
    Map<String, String> environment = JumpgateCli.environment(spec);
    String user = setting(redisUser, environment, REDIS_USER_VARIABLE);
    String password = setting(redisPassword, environment, REDIS_PASSWORD_VARIABLE);
    checkCredentials(user, password);
    Duration deadline =
        commandTimeout == null
            ? DEFAULT_COMMAND_TIMEOUT
            : OptionValues.positiveDuration(spec, "--command-timeout", commandTimeout);
    TopologyInput source = TopologyInput.resolve(spec, etcd, file);
    List<String> secrets = secrets(password);

    JumpgateOptions.Builder options =
        JumpgateOptions.builder()
            // A one-shot tool: not listed by 'jumpgate clients', and needs no write access to etcd.
            .registration(false)
            .commandTimeout(deadline);
    if (source.isEtcd()) {
      options.etcd(source.etcdOptions()).startTimeout(source.timeout().plus(START_GRACE));
    } else {
      options.topologySource(source.create()).startTimeout(source.timeout());
    }
    if (user != null) {
      options.redisCredentials(user, password);
    } else if (password != null) {
      options.redisPassword(password);
    }
    applyRedisTls(options);
    ExecRunner.Trace listener = trace ? new ExecRunner.Trace() : null;
    options.commandListener(listener);

    JumpgateClient client;
    try {
      client = JumpgateClient.create(options.build());
    } catch (RuntimeException e) {
      throw scrubbed(e, secrets);
    }
    try (client) {
      ExecRunner runner = new ExecRunner(client, listener, secrets);
      return command.isEmpty() ? runLines(runner) : runOne(runner);
    }
  }

  /** The command of the command line: exit code 0 for a reply, 1 for an error of any kind. */
  private int runOne(ExecRunner runner) {
    List<byte[]> arguments = new ArrayList<>(command.size());
    for (String argument : command) {
      arguments.add(argument.getBytes(StandardCharsets.UTF_8));
    }
    ExecRunner.Outcome outcome = runner.run(arguments);
    print(outcome);
    return outcome.status() == ExecRunner.Status.REPLY ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  /**
   * The commands of stdin, one per line: exit code 1 when a line could not be parsed, a command was
   * refused or could not be delivered; error replies are answers.
   */
  private int runLines(ExecRunner runner) {
    PrintWriter out = spec.commandLine().getOut();
    boolean interactive = input == System.in && System.console() != null;
    boolean failed = false;
    BufferedInputStream in = new BufferedInputStream(input);
    int lineNumber = 0;
    while (true) {
      if (interactive) {
        out.print("jumpgate> ");
        out.flush();
      }
      byte[] line = readLine(in);
      if (line == null) {
        break;
      }
      lineNumber++;
      List<byte[]> arguments;
      try {
        arguments = CommandLineTokens.split(line);
      } catch (CommandLineTokens.SyntaxException e) {
        print(
            new ExecRunner.Outcome(
                new ReplyPrinter.ErrorReply("ERR line " + lineNumber + ": " + e.getMessage()),
                ExecRunner.Status.REFUSED,
                List.of()));
        failed = true;
        continue;
      }
      if (arguments.isEmpty() || (arguments.get(0).length > 0 && arguments.get(0)[0] == '#')) {
        continue;
      }
      if (arguments.size() == 1 && isQuit(arguments.get(0))) {
        break;
      }
      ExecRunner.Outcome outcome = runner.run(arguments);
      print(outcome);
      failed |=
          outcome.status() == ExecRunner.Status.REFUSED
              || outcome.status() == ExecRunner.Status.FAILED;
    }
    return failed ? ExitCodes.FAILURE : ExitCodes.OK;
  }

  private static boolean isQuit(byte[] word) {
    String text = ExecCommandTable.text(word).toLowerCase(Locale.ROOT);
    return text.equals("quit") || text.equals("exit");
  }

  private void print(ExecRunner.Outcome outcome) {
    PrintWriter out = spec.commandLine().getOut();
    for (String line : outcome.trace()) {
      out.println(line);
    }
    for (String line : ReplyPrinter.lines(outcome.reply())) {
      out.println(line);
    }
    out.flush();
  }

  /** One line of bytes without its line end ({@code \n} or {@code \r\n}); null at the end. */
  private static byte[] readLine(InputStream in) {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try {
      int b;
      boolean any = false;
      while ((b = in.read()) != -1) {
        any = true;
        if (b == '\n') {
          break;
        }
        line.write(b);
      }
      if (!any) {
        return null;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the commands from stdin: " + e.getMessage(), e);
    }
    byte[] bytes = line.toByteArray();
    if (bytes.length > 0 && bytes[bytes.length - 1] == '\r') {
      return Arrays.copyOf(bytes, bytes.length - 1);
    }
    return bytes;
  }

  /** {@code --redis-tls}, {@code --redis-cacert}, {@code --redis-cert} and {@code --redis-key}. */
  private void applyRedisTls(JumpgateOptions.Builder options) {
    if ((redisClientCertificate == null) != (redisClientKey == null)) {
      throw new ParameterException(
          spec.commandLine(), "--redis-cert and --redis-key must be given together");
    }
    boolean anyFile = redisCaCertificate != null || redisClientCertificate != null;
    if (anyFile && !redisTls) {
      throw new ParameterException(
          spec.commandLine(),
          (redisCaCertificate != null ? "--redis-cacert" : "--redis-cert") + " needs --redis-tls");
    }
    Path ca =
        redisCaCertificate == null
            ? null
            : EtcdOptions.existingFile(spec, "--redis-cacert", redisCaCertificate);
    options.redisTls(redisTls, ca);
    if (redisClientCertificate != null) {
      options.redisClientCertificate(
          EtcdOptions.existingFile(spec, "--redis-cert", redisClientCertificate),
          EtcdOptions.existingFile(spec, "--redis-key", redisClientKey));
    }
  }

  private void checkCredentials(String user, String password) {
    if (user != null && password == null) {
      throw new ParameterException(
          spec.commandLine(),
          (redisUser != null ? "--redis-user" : REDIS_USER_VARIABLE)
              + " needs a password: give --redis-password or set "
              + REDIS_PASSWORD_VARIABLE);
    }
    if (user != null && user.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          (redisUser != null ? "--redis-user" : REDIS_USER_VARIABLE) + " must not be empty");
    }
    if (password != null && password.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          (redisPassword != null ? "--redis-password" : REDIS_PASSWORD_VARIABLE)
              + " must not be empty");
    }
  }

  /** The texts to keep out of messages: the Redis password, when long enough to search for. */
  private static List<String> secrets(String password) {
    return password == null || password.length() < ErrorReporter.MIN_SCRUBBED_LENGTH
        ? List.of()
        : List.of(password);
  }

  /** A failure to start the driver, as a one-line {@link JumpgateException} without secrets. */
  private static JumpgateException scrubbed(RuntimeException failure, List<String> secrets) {
    String message = failure.getMessage();
    if (message == null) {
      message = failure.getClass().getSimpleName();
    } else if (!(failure instanceof JumpgateException)) {
      message = "cannot start the driver: " + message;
    }
    boolean leaks = false;
    for (String secret : secrets) {
      leaks |= message.contains(secret);
      message = message.replace(secret, "***");
    }
    if (failure instanceof JumpgateException jumpgate && !leaks) {
      return jumpgate;
    }
    return new JumpgateException(message);
  }

  private static String setting(String option, Map<String, String> environment, String variable) {
    return option != null ? option : environment.get(variable);
  }

  @Override
  public String toString() {
    return "ExecCommand{trace="
        + trace
        + ", redisUser="
        + redisUser
        + ", redisPassword="
        + (redisPassword == null ? "none" : "***")
        + ", redisTls="
        + redisTls
        + "}";
  }
}
