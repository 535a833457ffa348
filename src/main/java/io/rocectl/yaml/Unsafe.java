package io.rocectl.yaml;

/**
 * A value written with YAML's {@code !unsafe} tag: Ansible's marker for text that is never
 * templated. It is kept as this type (not a {@link String}), so a renderer that templates strings
 * passes it through unchanged; where it is printed it reads as its text.
 */
public record Unsafe(String text) implements CharSequence {
    public Unsafe {
        text = text == null ? "" : text;
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public char charAt(int index) {
        return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return text.subSequence(start, end);
    }

    @Override
    public String toString() {
        return text;
    }
}
