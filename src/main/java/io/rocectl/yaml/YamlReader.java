package io.rocectl.yaml;

import io.rocectl.error.InputError;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads YAML with the limits every input shares, refusing before any work grows with the input's
 * expansion: at most {@value #MAX_BYTES} bytes of strict UTF-8, {@value #MAX_DEPTH} levels of
 * nesting, {@value #MAX_ALIASES} aliases of collections, and {@value #MAX_NODES} values once aliases are expanded
 * (a "billion laughs" document has few aliases but expands to billions of values). Duplicate keys
 * are errors. YAML 1.1 typing as Ansible reads it ({@code yes} is true; timestamps are {@link Timestamp}).
 */
public final class YamlReader {
    public static final int MAX_BYTES = 16 * 1024 * 1024;
    public static final int MAX_DEPTH = 100;
    public static final int MAX_ALIASES = 100;
    public static final long MAX_NODES = 1_000_000;

    private YamlReader() {}

    /** A file's text: at most {@value #MAX_BYTES} bytes, strict UTF-8 (an invalid byte is an error at its line). */
    public static String readText(Path path, String display) {
        byte[] bytes;
        try {
            if (Files.size(path) > MAX_BYTES) {
                throw new InputError(display, 0, 0, "file is larger than " + MAX_BYTES / (1024 * 1024) + " MiB");
            }
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new InputError(display, 0, 0, "cannot read: " + e.getMessage());
        }
        return decode(bytes, display);
    }

    static String decode(byte[] bytes, String display) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult r = d.decode(in, out, true);
        if (!r.isError()) r = d.flush(out);
        if (r.isError()) {
            int bad = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < bad; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            throw new InputError(display, line, bad - lineStart + 1,
                    String.format("invalid UTF-8 (byte 0x%02x): the file must be UTF-8 text", bytes[bad] & 0xff));
        }
        out.flip();
        String s = out.toString();
        return s.startsWith("\uFEFF") ? s.substring(1) : s;
    }

    /** Reads and parses a file. */
    public static YamlFile read(Path path, String display) {
        return parse(display, readText(path, display));
    }

    /** Parses one document; an empty document has a null root. */
    public static YamlFile parse(String display, String text) {
        if (text.length() > MAX_BYTES) throw new InputError(display, 0, 0, "document is larger than " + MAX_BYTES + " characters");
        LoaderOptions opts = options();
        try {
            precheck(display, text, opts);
            // what Yaml.compose does, without the constructor and representer a Yaml object builds
            // (and loads the classes of) but composing never uses: tens of ms at start-up
            Node root = new Composer(parser(text, opts), new PyYamlResolver(), opts).getSingleNode();
            YamlFile doc = new YamlFile(display, root, opts);
            if (root != null) {
                checkExpansion(doc, root, new IdentityHashMap<>());
                checkDuplicates(doc, root, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
            }
            return doc;
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String what = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw at(display, m, "YAML syntax error: " + firstLine(what));
        } catch (YAMLException e) {
            throw new InputError(display, 0, 0, "YAML error: " + firstLine(e.getMessage()));
        }
    }

    /**
     * Plain scalars typed as PyYAML (and so Ansible) types them: SnakeYAML's YAML 1.1 rules, but a
     * float needs a dot and a signed exponent ({@code 1e3} and {@code 1.0e3} are strings,
     * {@code 1.0e+3} is a float), as in PyYAML's resolver.
     */
    static final class PyYamlResolver extends org.yaml.snakeyaml.resolver.Resolver {
        static final java.util.regex.Pattern PY_FLOAT = java.util.regex.Pattern.compile("^(?:[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*"
                + "(?:[eE][-+][0-9]+)?|\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
                + "|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$");

        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(org.yaml.snakeyaml.nodes.Tag.BOOL, BOOL, "yYnNtTfFoO");
            addImplicitResolver(org.yaml.snakeyaml.nodes.Tag.INT, INT, "-+0123456789");
            addImplicitResolver(org.yaml.snakeyaml.nodes.Tag.FLOAT, PY_FLOAT, "-+0123456789.");
            addImplicitResolver(org.yaml.snakeyaml.nodes.Tag.MERGE, MERGE, "<");
            addImplicitResolver(org.yaml.snakeyaml.nodes.Tag.NULL, NULL, "~nN\0");
            addImplicitResolver(org.yaml.snakeyaml.nodes.Tag.NULL, EMPTY, null);
            addImplicitResolver(org.yaml.snakeyaml.nodes.Tag.TIMESTAMP, TIMESTAMP, "0123456789");
            addImplicitResolver(org.yaml.snakeyaml.nodes.Tag.YAML, YAML, "!&*");
        }
    }

    static LoaderOptions options() {
        LoaderOptions o = new LoaderOptions();
        o.setAllowDuplicateKeys(false);
        o.setMaxAliasesForCollections(MAX_ALIASES);
        o.setCodePointLimit(MAX_BYTES);
        o.setNestingDepthLimit(MAX_DEPTH + 1); // precheck reports it first, with a line
        o.setAllowRecursiveKeys(false);
        return o;
    }

    /** The parser Yaml.parse and Yaml.compose would use, made directly (see {@link #precheck}). */
    private static Parser parser(String text, LoaderOptions opts) {
        return new ParserImpl(new StreamReader(new StringReader(text)), opts);
    }

    /** The next event, null at the end (Yaml.parse's iteration). */
    private static Event next(Parser p) {
        return p.peekEvent() == null ? null : p.getEvent();
    }

    /** One pass over the parser's events: nesting depth and aliases of collections, each reported at its line. */
    private static void precheck(String display, String text, LoaderOptions opts) {
        int depth = 0;
        int aliases = 0;
        Map<String, Boolean> anchorIsCollection = new HashMap<>();
        Parser parser = parser(text, opts);
        for (Event e = next(parser); e != null; e = next(parser)) {
            if (e instanceof CollectionStartEvent c) {
                if (++depth > MAX_DEPTH) {
                    throw at(display, e.getStartMark(), "YAML nested more than " + MAX_DEPTH + " levels deep");
                }
                if (c.getAnchor() != null) anchorIsCollection.put(c.getAnchor(), true);
            } else if (e instanceof CollectionEndEvent) {
                depth--;
            } else if (e instanceof AliasEvent a) {
                if (Boolean.TRUE.equals(anchorIsCollection.get(a.getAnchor())) && ++aliases > MAX_ALIASES) {
                    throw at(display, e.getStartMark(), "more than " + MAX_ALIASES + " YAML aliases ('*"
                            + a.getAnchor() + "') to lists or mappings");
                }
            } else if (e instanceof NodeEvent n && n.getAnchor() != null) {
                anchorIsCollection.putIfAbsent(n.getAnchor(), false);
            }
        }
    }

    /** Values under a node once aliases are expanded; refuses past {@value #MAX_NODES}. */
    private static long checkExpansion(YamlFile doc, Node n, IdentityHashMap<Node, Long> memo) {
        Long known = memo.get(n);
        if (known != null) return known;
        memo.put(n, 1L); // a recursive alias counts once (snakeyaml refuses recursive keys)
        long size = 1;
        if (n instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                size += checkExpansion(doc, t.getKeyNode(), memo) + checkExpansion(doc, t.getValueNode(), memo);
                if (size > MAX_NODES) break;
            }
        } else if (n instanceof SequenceNode s) {
            for (Node c : s.getValue()) {
                size += checkExpansion(doc, c, memo);
                if (size > MAX_NODES) break;
            }
        }
        if (size > MAX_NODES) {
            throw doc.error(n, "YAML aliases expand to more than " + MAX_NODES + " values (an alias bomb?)");
        }
        memo.put(n, size);
        return size;
    }

    private static void checkDuplicates(YamlFile doc, Node n, Set<Node> seen) {
        if (!seen.add(n)) return;
        if (n instanceof MappingNode m) {
            Set<String> keys = new HashSet<>();
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && !k.getValue().equals("<<") && !keys.add(k.getValue())) {
                    throw doc.error(k, "duplicate key '" + k.getValue() + "'");
                }
                checkDuplicates(doc, t.getKeyNode(), seen);
                checkDuplicates(doc, t.getValueNode(), seen);
            }
        } else if (n instanceof SequenceNode s) {
            for (Node c : s.getValue()) checkDuplicates(doc, c, seen);
        }
    }

    static InputError at(String file, Mark m, String message) {
        if (m == null) return new InputError(file, 0, 0, message);
        return new InputError(file, m.getLine() + 1, m.getColumn() + 1, message);
    }

    static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return (i < 0 ? s : s.substring(0, i)).trim();
    }
}
