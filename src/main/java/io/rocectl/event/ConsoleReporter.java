package io.rocectl.event;

import io.rocectl.hostset.NodeSet;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ansible-like text output. Identical results of many hosts print once under their folded host
 * set ({@code ok: [gpu[01-30,32]]}); {@code -v} prints every host with its message. A
 * {@code debug} message prints at every verbosity as Ansible prints it
 * ({@code ok: [h1] => { "msg": ... }}), once per distinct message; {@code -D} prints one diff per
 * distinct change ({@code --- diff for gpu[01-08] (8 hosts) ---}).
 */
public final class ConsoleReporter implements RunListener {
    private final PrintStream out;
    private final int verbosity;
    private final boolean color;
    private final boolean diff;
    private final boolean progress;
    private int done;
    private int total;
    private String task;
    /** At -v, the first host that printed each debug body of the current task (later ones refer to it). */
    private final Map<String, String> printedBody = new LinkedHashMap<>();

    public ConsoleReporter(PrintStream out, int verbosity, boolean color, boolean diff, boolean progress) {
        this.out = out;
        this.verbosity = verbosity;
        this.color = color;
        this.diff = diff;
        this.progress = progress;
    }

    private static String banner(String title) {
        int pad = Math.max(3, 79 - title.length());
        return title + " " + "*".repeat(pad);
    }

    @Override
    public synchronized void onPlayStart(String play, List<String> hosts) {
        out.println();
        out.println(banner("PLAY [" + play + "]"));
    }

    @Override
    public synchronized void onTaskStart(String t, List<String> hosts) {
        task = t;
        done = 0;
        total = hosts.size();
    }

    @Override
    public synchronized void onHostResult(HostResult r) {
        done++;
        if (progress && total > 1) {
            System.err.print("\r\033[2K  " + task + ": " + done + "/" + total);
            if (done == total) System.err.print("\r\033[2K");
            System.err.flush();
        }
    }

    @Override
    public synchronized void onTaskEnd(String t, List<HostResult> results) {
        taskEnd("TASK", t, results);
    }

    @Override
    public synchronized void onIncludeFailed(List<HostResult> results) {
        if (verbosity > 0) for (HostResult r : results) printOne(r);
        else foldFailures(results);
    }

    @Override
    public synchronized void onHandlerEnd(String t, List<HostResult> results) {
        taskEnd("RUNNING HANDLER", t, results);
    }

    private void taskEnd(String kind, String t, List<HostResult> results) {
        out.println();
        out.println(banner(kind + " [" + t + "]"));
        printedBody.clear();
        if (verbosity > 0) {
            for (HostResult r : results) printOne(r);
        } else {
            Map<String, List<String>> items = new LinkedHashMap<>();
            Map<String, List<String>> groups = new LinkedHashMap<>();
            List<HostResult> detailed = new ArrayList<>();
            for (HostResult r : results) {
                if (includedAny(r)) continue; // its included: line says it
                if (r.status() == Status.OK && r.items().stream().anyMatch(i -> i.shown() != null)) {
                    // a debug loop: each item's message, as Ansible prints it, once per distinct one
                    for (HostResult i : r.items()) {
                        String line = i.status().label() + "\0" + via(i) + "\0" + " => (item=" + i.itemLabel() + ")"
                                + (i.shown() == null ? "" : " => " + body(i.shown()));
                        items.computeIfAbsent(line, k -> new ArrayList<>()).add(r.host());
                    }
                    continue;
                }
                if (r.status() == Status.FAILED || r.status() == Status.UNREACHABLE || r.status() == Status.IGNORED) {
                    detailed.add(r);
                    continue;
                }
                // hosts fold with the hosts of the same status that ran on the same delegate
                String key = r.status().label() + "\0" + via(r)
                        + (r.status() == Status.CHANGED && !r.msg().isEmpty() ? "\0" + r.msg()
                        : r.shown() != null ? "\0" + body(r.shown()) : "");
                groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r.host());
            }
            for (Map.Entry<String, List<String>> e : groups.entrySet()) {
                String[] parts = e.getKey().split("\0", 3);
                Status s = statusOf(parts[0]);
                String line = parts[0] + ": [" + NodeSet.fold(e.getValue()) + parts[1] + "]"
                        + (parts.length > 2 ? " => " + parts[2] : "");
                out.println(paint(s, line));
            }
            for (Map.Entry<String, List<String>> e : items.entrySet()) {
                String[] parts = e.getKey().split("\0", 3);
                out.println(paint(statusOf(parts[0]), parts[0] + ": [" + NodeSet.fold(e.getValue()) + parts[1] + "]" + parts[2]));
            }
            foldFailures(detailed);
        }
        printIncluded(results);
        if (diff) FoldedDiffs.print(out, results, verbosity);
    }

    /** A debug body as Ansible prints it (indented JSON, keys sorted). */
    private static String body(Map<String, Object> shown) {
        try {
            return io.rocectl.template.JsonText.displayed(shown);
        } catch (RuntimeException e) {
            return String.valueOf(shown);
        }
    }

    /**
     * At -v, a debug result's body: in full for the first host that shows it in this task,
     * {@code (same as HOST)} for the next ones.
     */
    private String bodyOnce(HostResult r) {
        String b = body(r.shown());
        String key = (r.itemLabel() == null ? "" : r.itemLabel()) + "\0" + b;
        String first = printedBody.putIfAbsent(key, r.host());
        return first == null ? b : "(same as " + first + ")";
    }

    /**
     * A meta task: at -v as Ansible prints it, its banner for each host it ran for (once when not
     * per host), with {@code skipping: [h1]} under it for a skipped host; folded: its banner once,
     * the skipped hosts on one line.
     */
    @Override
    public synchronized void onMeta(String t, List<String> hosts, List<HostResult> skipped, boolean perHost) {
        if (verbosity == 0 || !perHost) {
            out.println();
            out.println(banner("TASK [" + t + "]"));
            List<String> names = new ArrayList<>();
            for (HostResult r : skipped) names.add(r.host());
            if (names.isEmpty()) return;
            if (verbosity == 0) out.println(paint(Status.SKIPPED, "skipping: [" + NodeSet.fold(names) + "]"));
            else for (String h : names) out.println(paint(Status.SKIPPED, "skipping: [" + h + "]"));
            return;
        }
        for (String h : hosts) {
            out.println();
            out.println(banner("TASK [" + t + "]"));
            for (HostResult r : skipped) if (r.host().equals(h)) out.println(paint(Status.SKIPPED, "skipping: [" + h + "]"));
        }
    }

    private void foldFailures(List<HostResult> detailed) {
        Map<String, List<String>> byMsg = new LinkedHashMap<>();
        Map<String, Status> statusOf = new LinkedHashMap<>();
        for (HostResult r : detailed) {
            String key = r.status().name() + "\0" + via(r) + "\0" + failureText(r);
            byMsg.computeIfAbsent(key, k -> new ArrayList<>()).add(r.host());
            statusOf.put(key, r.status());
        }
        for (Map.Entry<String, List<String>> e : byMsg.entrySet()) {
            Status s = statusOf.get(e.getKey());
            String[] parts = e.getKey().split("\0", 3);
            String msg = parts[2];
            String hosts = NodeSet.fold(e.getValue()) + parts[1];
            String line = switch (s) {
                case UNREACHABLE -> "fatal: [" + hosts + "]: UNREACHABLE! => " + msg;
                case IGNORED -> "failed: [" + hosts + "] => " + msg + " ...ignoring";
                default -> "fatal: [" + hosts + "]: FAILED! => " + msg;
            };
            out.println(paint(s, line));
        }
    }

    private static String failureText(HostResult r) {
        StringBuilder sb = new StringBuilder(r.msg().isEmpty() ? "failed" : r.msg());
        Object rc = r.data().get("rc");
        Object err = r.data().get("stderr");
        if (rc != null) sb.append(" (rc=").append(rc).append(')');
        if (err != null && !err.toString().isBlank() && !r.msg().contains(err.toString().strip())) {
            sb.append(": ").append(err.toString().strip().replace('\n', ' '));
        }
        for (HostResult i : r.items()) {
            if (i.status() == Status.FAILED) sb.append("\n    item ").append(i.itemLabel()).append(": ").append(i.msg());
        }
        return sb.toString();
    }

    /**
     * An include_tasks or include_role that included (a loop: on every item that did): Ansible
     * prints no result line for it, {@code included: FILE for HOSTS} for an include_tasks.
     */
    private static boolean included(HostResult r) {
        if (r.status() != Status.OK && r.status() != Status.CHANGED) return false;
        if (r.items().isEmpty()) return r.data().containsKey(INCLUDE_PATH) || r.data().containsKey("include_role");
        for (HostResult i : r.items()) if (!included(i)) return false;
        return true;
    }

    /** An include that included something (a loop: on some item). */
    private static boolean includedAny(HostResult r) {
        if (r.status() != Status.OK && r.status() != Status.CHANGED) return false;
        if (r.items().isEmpty()) return included(r);
        for (HostResult i : r.items()) if (included(i)) return true;
        return false;
    }

    /** The file an include_tasks result included (the key the include_tasks module gives it). */
    private static final String INCLUDE_PATH = "_include_path";

    /**
     * After a task's results, as Ansible: {@code included: FILE for h1, h2} for each file (and loop
     * item) an include_tasks included, the hosts in result order (folded without -v).
     */
    private void printIncluded(List<HostResult> results) {
        Map<String, List<String>> byFile = new LinkedHashMap<>();
        for (HostResult r : results) {
            List<HostResult> each = r.items().isEmpty() ? List.of(r) : r.items();
            for (HostResult i : each) {
                if ((i.status() == Status.OK || i.status() == Status.CHANGED) && i.data().get(INCLUDE_PATH) != null) {
                    String key = i.data().get(INCLUDE_PATH) + (i.itemLabel() == null ? "" : " => (item=" + i.itemLabel() + ")");
                    byFile.computeIfAbsent(key, k -> new ArrayList<>()).add(r.host());
                }
            }
        }
        byFile.forEach((key, hosts) -> {
            int at = key.indexOf(" => (item=");
            String file = at < 0 ? key : key.substring(0, at);
            String hs = verbosity > 0 ? String.join(", ", hosts) : NodeSet.fold(hosts);
            out.println(paint(Status.SKIPPED, "included: " + file + " for " + hs + (at < 0 ? "" : key.substring(at))));
        });
    }

    /** What follows the host in a line: {@code " -> DELEGATE"} (skipped results name the host only). */
    private static String via(HostResult r) {
        return r.label().substring(r.host().length());
    }

    /**
     * One host's result as Ansible's console prints it: a loop as its items' lines
     * ({@code ok: [h1 -> h2] => (item=a)}, {@code skipping: [h1] => (item=b) },
     * {@code failed: [h1] (item=c) => ...}), then {@code skipping: [h1]} when every item was
     * skipped; a failure as {@code fatal: [h1]: FAILED! => ...} (also after the items of a loop
     * an error cut short); {@code ...ignoring} under an ignored failure.
     */
    private void printOne(HostResult r) {
        if (included(r)) return;
        boolean loop = !r.items().isEmpty();
        if (loop) {
            for (HostResult i : r.items()) printItem(i);
        }
        String line = switch (r.status()) {
            // (a loop cut short by an error, without results, also prints the error: Ansible's)
            case FAILED, IGNORED -> loop && r.data().containsKey("results") ? null
                    : "fatal: [" + r.label() + "]: FAILED! => " + failureText(r);
            case UNREACHABLE -> "fatal: [" + r.label() + "]: UNREACHABLE! => " + r.msg();
            case SKIPPED -> "skipping: [" + r.label() + "]" + (loop || r.msg().isEmpty() ? "" : " => " + r.msg());
            default -> loop ? null : r.status().label() + ": [" + r.label() + "]"
                    + (r.shown() != null ? " => " + bodyOnce(r) : r.msg().isEmpty() ? "" : " => " + r.msg());
        };
        if (line != null) out.println(paint(r.status(), line));
        if (r.status() == Status.IGNORED) out.println(paint(Status.SKIPPED, "...ignoring"));
        if (verbosity > 1) {
            Object so = r.data().get("stdout");
            if (so != null && !so.toString().isEmpty()) out.println("    stdout: " + so.toString().strip().replace("\n", "\n            "));
        }
    }

    private void printItem(HostResult i) {
        if (included(i)) return;
        String item = "(item=" + i.itemLabel() + ")";
        String line = switch (i.status()) {
            case FAILED, IGNORED -> "failed: [" + i.label() + "] " + item + " => " + failureText(i);
            case UNREACHABLE -> "fatal: [" + i.label() + "]: UNREACHABLE! => " + item + " " + i.msg();
            case SKIPPED -> "skipping: [" + i.label() + "] => " + item + " ";
            default -> i.status().label() + ": [" + i.label() + "] => " + item
                    + (i.shown() != null ? " => " + bodyOnce(i) : i.msg().isEmpty() ? "" : " => " + i.msg());
        };
        out.println(paint(i.status(), line));
        if (verbosity > 1) {
            Object so = i.data().get("stdout");
            if (so != null && !so.toString().isEmpty()) out.println("    stdout: " + so.toString().strip().replace("\n", "\n            "));
        }
    }

    @Override
    public synchronized void onNoHostsLeft() {
        out.println();
        out.println(banner("NO MORE HOSTS LEFT"));
    }

    @Override
    public synchronized void onWarning(String message) {
        out.println(paint(Status.FAILED, "[WARNING]: " + message));
    }

    @Override
    public synchronized void onRecap(Recap recap) {
        out.println();
        out.println(banner("PLAY RECAP"));
        Map<String, List<String>> byLine = new LinkedHashMap<>();
        recap.stats().forEach((h, s) -> byLine.computeIfAbsent(s.line(), k -> new ArrayList<>()).add(h));
        int w = 0;
        Map<String, String> folded = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : byLine.entrySet()) {
            String f = NodeSet.fold(e.getValue());
            folded.put(e.getKey(), f);
            w = Math.max(w, f.length());
        }
        for (Map.Entry<String, String> e : folded.entrySet()) {
            String line = String.format("%-" + w + "s : %s", e.getValue(), e.getKey());
            boolean bad = e.getKey().contains("failed=0") ? !e.getKey().contains("unreachable=0") : true;
            out.println(paint(bad ? Status.FAILED : e.getKey().contains("changed=0") ? Status.OK : Status.CHANGED, line));
        }
        if (!recap.failedHosts().isEmpty()) out.println("failed hosts: " + NodeSet.fold(recap.failedHosts()));
        if (!recap.unreachableHosts().isEmpty()) out.println("unreachable hosts: " + NodeSet.fold(recap.unreachableHosts()));
        if (recap.retryFile() != null) out.println("retry them with: --limit @" + recap.retryFile());
        if (recap.interrupted()) out.println(paint(Status.FAILED, "interrupted: no new task was started after the signal"));
        out.printf("elapsed: %.1f s%n", recap.millis() / 1000.0);
        out.flush();
    }

    private static Status statusOf(String label) {
        for (Status s : Status.values()) if (s.label().equals(label)) return s;
        return Status.OK;
    }

    private String paint(Status s, String text) {
        if (!color) return text;
        String code = switch (s) {
            case OK -> "32";
            case CHANGED -> "33";
            case SKIPPED -> "36";
            case FAILED, IGNORED -> "31";
            case UNREACHABLE -> "1;31";
        };
        return "\033[" + code + "m" + text + "\033[0m";
    }
}
