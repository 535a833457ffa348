package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.template.Templar;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlSequence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rocectl.playbook.FieldReaders.becomeUser;
import static io.rocectl.playbook.FieldReaders.bool;
import static io.rocectl.playbook.FieldReaders.checkTemplates;
import static io.rocectl.playbook.FieldReaders.environment;
import static io.rocectl.playbook.FieldReaders.option;
import static io.rocectl.playbook.FieldReaders.percent;
import static io.rocectl.playbook.FieldReaders.str;
import static io.rocectl.playbook.FieldReaders.stringMap;
import static io.rocectl.playbook.FieldReaders.tagList;
import static java.util.Map.entry;

/**
 * The keywords a play accepts (Ansible's play.py attributes), as a table like {@link TaskKeywords}:
 * each keyword with the reader of its value ({@link FieldReaders}) and the field of {@link Read}
 * it sets. A key that is not in the table is refused where it stands, with the nearest keyword.
 */
final class PlayKeywords {
    private PlayKeywords() {}

    /**
     * One play mapping's keywords as read; what it does not set is the default. The task
     * sections, handlers, roles and {@code vars_files} stay nodes: {@link PlayParser} reads them
     * once every keyword is known (they depend on the play's tags, {@code no_log} and vars).
     */
    static final class Read {
        String name;
        String hosts;
        final Map<String, Object> vars = new LinkedHashMap<>();
        YamlNode varsFiles;
        boolean gather = true;
        Boolean become;
        List<Object> serial = List.of();
        Integer maxFail;
        boolean anyFatal;
        String strategy = "linear";
        final Set<String> tags = new LinkedHashSet<>();
        final List<YamlNode> pre = new ArrayList<>();
        final List<YamlNode> main = new ArrayList<>();
        final List<YamlNode> post = new ArrayList<>();
        YamlNode handlers;
        YamlNode roles;
        boolean noLog;
        TaskOptions options = TaskOptions.NONE;
        Object environment;
    }

    /** Reads one keyword's value into the play being read. */
    @FunctionalInterface
    private interface Keyword {
        void read(Read r, YamlSource src, String key, YamlNode keyNode, YamlNode value);
    }

    private static final Keyword OPTION = (r, src, key, keyNode, v) -> r.options = option(src, r.options, key, v);

    private static final Map<String, Keyword> TABLE = Map.ofEntries(
            entry("name", (r, src, key, keyNode, v) -> r.name = str(src, v, key)),
            entry("hosts", (r, src, key, keyNode, v) -> r.hosts = hostsPattern(src, v)),
            entry("vars", (r, src, key, keyNode, v) -> {
                checkTemplates(src, v);
                r.vars.putAll(stringMap(src, v, "vars"));
            }),
            entry("vars_files", (r, src, key, keyNode, v) -> r.varsFiles = v),
            entry("gather_facts", (r, src, key, keyNode, v) -> r.gather = bool(src, v, key)),
            entry("become", (r, src, key, keyNode, v) -> r.become = bool(src, v, key)),
            entry("become_user", (r, src, key, keyNode, v) -> becomeUser(src, v)),
            entry("serial", (r, src, key, keyNode, v) -> r.serial = serial(src, v)),
            entry("max_fail_percentage", (r, src, key, keyNode, v) -> r.maxFail = percent(src, v, key)),
            entry("any_errors_fatal", (r, src, key, keyNode, v) -> r.anyFatal = bool(src, v, key)),
            entry("strategy", (r, src, key, keyNode, v) -> r.strategy = strategy(src, v, key)),
            entry("tags", (r, src, key, keyNode, v) -> r.tags.addAll(tagList(src, v))),
            entry("pre_tasks", (r, src, key, keyNode, v) -> r.pre.add(v)),
            entry("tasks", (r, src, key, keyNode, v) -> r.main.add(v)),
            entry("post_tasks", (r, src, key, keyNode, v) -> r.post.add(v)),
            entry("handlers", (r, src, key, keyNode, v) -> r.handlers = v),
            entry("roles", (r, src, key, keyNode, v) -> r.roles = v),
            entry("no_log", (r, src, key, keyNode, v) -> r.noLog = bool(src, v, key)),
            entry("environment", (r, src, key, keyNode, v) -> r.environment = environment(src, v)),
            entry("connection", OPTION),
            entry("check_mode", OPTION),
            entry("diff", OPTION),
            entry("throttle", OPTION),
            // a keyword (so a misspelling of it is told so), refused where it stands
            entry("remote_user", (r, src, key, keyNode, v) -> {
                throw src.error(keyNode, PlaybookLoader.REMOTE_USER);
            }));

    /** The play keywords. */
    static final Set<String> NAMES = TABLE.keySet();

    /** Reads a play's keywords, in the order written; an unknown one is refused at its file:line:col. */
    static Read read(YamlSource src, YamlMapping m) {
        Read r = new Read();
        for (YamlEntry t : m.getValue()) {
            String key = src.scalar(t.getKeyNode(), "a play keyword");
            Keyword k = TABLE.get(key);
            if (k == null) throw src.error(t.getKeyNode(), "unknown play keyword '" + key + "'" + DidYouMean.hint(key, NAMES));
            k.read(r, src, key, t.getKeyNode(), t.getValueNode());
        }
        return r;
    }

    private static String strategy(YamlSource src, YamlNode v, String key) {
        String strategy = str(src, v, key);
        if (strategy == null) throw src.error(v, "'strategy' needs a value (linear or free)");
        if (!strategy.equals("linear") && !strategy.equals("free")) {
            throw src.error(v, "unknown strategy '" + strategy + "' (linear or free)");
        }
        return strategy;
    }

    private static String hostsPattern(YamlSource src, YamlNode v) {
        if (v instanceof YamlSequence s) {
            List<String> parts = new ArrayList<>();
            for (YamlNode n : s.getValue()) parts.add(src.scalar(n, "a host pattern"));
            return String.join(":", parts);
        }
        String p = src.scalar(v, "'hosts'");
        if (p.isBlank()) throw src.error(v, "'hosts' is empty");
        checkTemplates(src, v); // a template renders with the play's vars and -e when the run starts
        return p;
    }

    private static List<Object> serial(YamlSource src, YamlNode v) {
        List<Object> out = new ArrayList<>();
        List<YamlNode> items = v instanceof YamlSequence s ? s.getValue() : List.of(v);
        for (YamlNode n : items) {
            String s = src.scalar(n, "'serial'");
            if (s.matches("\\d+")) {
                int x = Integer.parseInt(s);
                if (x < 1) throw src.error(n, "'serial' must be at least 1, got '" + s + "'");
                out.add(x);
            } else if (s.matches("\\d+%")) {
                out.add(s);
            } else if (!Templar.isTemplate(s)) {
                throw src.error(n, "'serial' must be a number or a percentage, got '" + s + "'");
            } else {
                checkTemplates(src, n);
                out.add(s);
            }
        }
        return List.copyOf(out);
    }
}
