package io.rocectl.fact;

import java.util.function.Function;

/**
 * One fact: a constant shell snippet (never built from inventory values) and a pure parser of
 * what it prints.
 *
 * @param name    section name, unique within one {@link FactScript}
 * @param shell   a POSIX sh snippet; it may use the script's positional parameters
 * @param parser  turns the snippet's stdout into a value
 * @param ipBatch for a fact that is one {@code ip -j} listing: the same listing as a line of
 *                {@code ip -j -batch -} (no options, so the family is given by the command's own
 *                words), or null. A script with several such facts runs them as ONE ip.
 */
public record Fact<T>(String name, String shell, Function<String, T> parser, String ipBatch) {
    public Fact(String name, String shell, Function<String, T> parser) {
        this(name, shell, parser, null);
    }

    public T parse(String out) {
        return parser.apply(out == null ? "" : out);
    }

    /**
     * A fact is a constant, equal only to itself: lists of facts are searched on every read, and
     * a record's own equals (every component, the shell text included) costs a bootstrap the
     * first time and a string comparison each time.
     */
    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
