package io.rocectl.cli;

import io.rocectl.ack.Ack;
import io.rocectl.ack.AckFile;
import io.rocectl.error.InputError;
import io.rocectl.inventory.Inventory;
import io.rocectl.inventory.InventoryLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rocectl ack add|list|remove}: the list of acknowledged faults (a NIC waiting for a
 * technician), per cluster. No host is contacted.
 */
@Command(name = "ack", mixinStandardHelpOptions = true,
        description = "Acknowledge a known fault of a NIC or host, so it no longer fails probe/remediate until it changes or expires.",
        subcommands = {AckCommand.Add.class, AckCommand.ListAcks.class, AckCommand.Remove.class})
public final class AckCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("rocectl ack: give a subcommand: add, list, remove (see --help)");
        return ExitCodes.BAD_INPUT;
    }

    /** The cluster: {@code --cluster NAME}, or the one {@code -i INV} has (as probe/remediate derive it). */
    static final class Scope {
        @Option(names = {"-i", "--inventory"}, paramLabel = "INVENTORY",
                description = "The inventory whose cluster the acknowledgement is for (its cluster_name, else derived from its path).")
        List<Path> inventory;

        @Option(names = "--cluster", paramLabel = "NAME", description = "The cluster, as probe/remediate --cluster.")
        String cluster;

        Inventory loaded;

        /** The cluster name; with {@code required}, one of -i and --cluster must be given. */
        String cluster(boolean required) {
            if (inventory == null || inventory.isEmpty()) {
                if (cluster == null && required) throw new InputError("option --cluster", 0, 0, "give -i INVENTORY or --cluster NAME");
                return cluster == null ? null : StateScope.of(Path.of("/"), cluster, null, List.of()).cluster();
            }
            loaded = InventoryLoader.load(inventory);
            return StateScope.of(Path.of("/"), cluster, loaded, inventory).cluster();
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Acknowledge CAUSE on HOST:NIC (or on HOST and all its NICs); replaces an entry for the same target and cause.")
    static final class Add implements Callable<Integer> {
        @Parameters(paramLabel = "HOST:NIC|HOST", description = "The NIC (or the whole host).")
        String target;

        @Option(names = "--cause", required = true, paramLabel = "CAUSE",
                description = "The fault acknowledged, as the report names it (link-down, ...); another cause on the target still fails the run.")
        String cause;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (a ticket, a technician's visit).")
        String reason;

        @Option(names = "--expires", paramLabel = "DURATION|TIME",
                description = "Until when: 90m, 48h, 7d, or a time such as 2026-12-24T09:00:00Z (default: until removed).")
        String expires;

        @Mixin AckOption ackOption;
        @Mixin Scope scope;

        @Override
        public Integer call() throws Exception {
            Path file = requireFile(ackOption);
            String[] hn = AckFile.target(target);
            if (hn == null) throw new InputError("argument " + target, 0, 0, "expected HOST:NIC or HOST");
            if (!AckOption.causes().contains(cause)) {
                throw new InputError("option --cause", 0, 0, "unknown cause '" + cause + "' (one of "
                        + String.join(", ", AckOption.causes()) + ")");
            }
            if (reason.isBlank()) throw new InputError("option --reason", 0, 0, "the reason is empty");
            String cluster = scope.cluster(true);
            if (scope.loaded != null && !scope.loaded.hasHost(hn[0])) {
                throw new InputError("argument " + target, 0, 0, "host " + hn[0] + " is not in the inventory");
            }
            Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            Instant until = expires == null ? null : expiry(expires, now);
            List<Ack> all = new ArrayList<>(ackOption.all());
            boolean replaced = all.removeIf(a -> a.cluster().equals(cluster) && a.target().equals(target) && a.cause().equals(cause));
            Ack a = new Ack(cluster, hn[0], hn[1], cause, reason.strip(), now, until, 0);
            all.add(a);
            AckFile.write(file, all);
            System.out.println((replaced ? "updated: " : "acknowledged: ") + describe(a) + " in " + file);
            if (until != null && !until.isAfter(now)) {
                System.err.println("rocectl: warning: the acknowledgement expires " + until + ", in the past: it is reported as expired");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "The acknowledgements (of one cluster with -i or --cluster), active or expired.")
    static final class ListAcks implements Callable<Integer> {
        @Mixin AckOption ackOption;
        @Mixin Scope scope;

        @Override
        public Integer call() {
            String cluster = scope.cluster(false);
            Instant now = Instant.now();
            List<Ack> all = ackOption.all().stream().filter(a -> cluster == null || a.cluster().equals(cluster)).toList();
            if (all.isEmpty()) {
                System.out.println("no acknowledgements" + (cluster == null ? "" : " for cluster " + cluster) + " in " + ackOption.file());
                return ExitCodes.OK;
            }
            for (Ack a : all) System.out.println((a.expiredAt(now) ? "expired  " : "active   ") + describe(a));
            return ExitCodes.OK;
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = "Remove the acknowledgements of HOST:NIC (or HOST), of every cause or only --cause.")
    static final class Remove implements Callable<Integer> {
        @Parameters(paramLabel = "HOST:NIC|HOST", description = "The target as it was added.")
        String target;

        @Option(names = "--cause", paramLabel = "CAUSE", description = "Only this cause's acknowledgement.")
        String cause;

        @Mixin AckOption ackOption;
        @Mixin Scope scope;

        @Override
        public Integer call() throws Exception {
            Path file = requireFile(ackOption);
            String cluster = scope.cluster(true);
            List<Ack> all = new ArrayList<>(ackOption.all());
            List<Ack> gone = all.stream().filter(a -> a.cluster().equals(cluster) && a.target().equals(target)
                    && (cause == null || a.cause().equals(cause))).toList();
            if (gone.isEmpty()) {
                throw new InputError("argument " + target, 0, 0, "no acknowledgement of " + target
                        + (cause == null ? "" : " for " + cause) + " in cluster " + cluster + " in " + file);
            }
            all.removeAll(gone);
            AckFile.write(file, all);
            for (Ack a : gone) System.out.println("removed: " + describe(a));
            return ExitCodes.OK;
        }
    }

    private static Path requireFile(AckOption o) {
        Path f = o.file();
        if (f == null) throw new InputError("option --ack", 0, 0, "'none' has no file to change");
        return f;
    }

    /** {@code cluster/HOST:NIC CAUSE until T (by X): REASON}. */
    static String describe(Ack a) {
        return a.cluster() + "/" + a.target() + " " + a.cause() + (a.expires() == null ? "" : " until " + a.expires())
                + ": " + a.reason();
    }

    /** {@code 90m}, {@code 48h}, {@code 7d} from now, or an ISO-8601 instant. */
    static Instant expiry(String s, Instant now) {
        var m = java.util.regex.Pattern.compile("([0-9]{1,6})([mhd])").matcher(s);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
            return now.plus(d);
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw new InputError("option --expires", 0, 0, "'" + s + "' is not 90m, 48h, 7d or a time such as 2026-12-24T09:00:00Z");
        }
    }
}
