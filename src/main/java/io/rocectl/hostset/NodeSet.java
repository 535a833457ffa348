package io.rocectl.hostset;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An immutable set of host names, naturally ordered, written in folded form
 * ({@code gpu[01-16,18],mgmt1}) by {@link #toString()}.
 *
 * <p>Accepted syntax (see {@link #expand(String)}): comma-separated names, each with any number
 * of bracket groups holding numbers, ranges {@code 01-16} (ClusterShell) or {@code 01:16}
 * (Ansible, inclusive), steps {@code 1-9/2} or {@code 1:9:2}, and one-letter ranges {@code a-c}.
 * Zero padding comes from the range start. Bad syntax raises {@link IllegalArgumentException}.
 */
public final class NodeSet implements Iterable<String> {
    private static final NodeSet EMPTY = new NodeSet(new TreeSet<>(NaturalOrder.INSTANCE));
    private final SortedSet<String> names;

    private NodeSet(SortedSet<String> names) {
        this.names = Collections.unmodifiableSortedSet(names);
    }

    /** Names of a folded expression, in the order written, without duplicates. */
    public static List<String> expand(String text) {
        return NodeSetParser.expand(text);
    }

    /**
     * The compact folded form of the names: families sharing their text parts are folded into
     * ranges (zero padding kept) and listed in natural order; "" for no names.
     *
     * @throws IllegalArgumentException for an empty name or one containing {@code [ ] ,}
     */
    public static String fold(Collection<String> names) {
        return NodeSetFolder.fold(names);
    }

    /** The set written by a folded expression. */
    public static NodeSet parse(String text) {
        return of(expand(text));
    }

    /** The set of the given names. */
    public static NodeSet of(Collection<String> names) {
        TreeSet<String> s = new TreeSet<>(NaturalOrder.INSTANCE);
        s.addAll(names);
        return new NodeSet(s);
    }

    /** The empty set. */
    public static NodeSet empty() {
        return EMPTY;
    }

    /** Names in this set or the other one. */
    public NodeSet union(NodeSet other) {
        TreeSet<String> s = new TreeSet<>(names);
        s.addAll(other.names);
        return new NodeSet(s);
    }

    /** Names in both sets. */
    public NodeSet intersection(NodeSet other) {
        TreeSet<String> s = new TreeSet<>(names);
        s.retainAll(other.names);
        return new NodeSet(s);
    }

    /** Names in this set but not in the other one. */
    public NodeSet difference(NodeSet other) {
        TreeSet<String> s = new TreeSet<>(names);
        s.removeAll(other.names);
        return new NodeSet(s);
    }

    /** Whether the name is in the set. */
    public boolean contains(String name) {
        return names.contains(name);
    }

    /** Number of names. */
    public int size() {
        return names.size();
    }

    /** Whether there are no names. */
    public boolean isEmpty() {
        return names.isEmpty();
    }

    /** The names in natural order. */
    public List<String> names() {
        return new ArrayList<>(names);
    }

    @Override
    public Iterator<String> iterator() {
        return names.iterator();
    }

    /** The folded form, e.g. {@code gpu[01-16,18],mgmt1}. */
    @Override
    public String toString() {
        return fold(names);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeSet n && names.equals(n.names);
    }

    @Override
    public int hashCode() {
        return names.hashCode();
    }
}
