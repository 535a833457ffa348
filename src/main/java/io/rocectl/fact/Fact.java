package io.rocectl.fact;

import java.util.function.Function;

/**
 * One fact: a constant shell snippet (never built from inventory values) and a pure parser of
 * what it prints.
 *
 * @param name   section name, unique within one {@link FactScript}
 * @param shell  a POSIX sh snippet; it may use the script's positional parameters
 * @param parser turns the snippet's stdout into a value
 */
public record Fact<T>(String name, String shell, Function<String, T> parser) {
    public T parse(String out) {
        return parser.apply(out == null ? "" : out);
    }
}
