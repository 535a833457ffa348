package io.rocectl.module;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The arguments a module accepts, checked when the playbook is loaded (before any host is
 * contacted): unknown names get a did-you-mean, required ones must be present, literal values
 * must have the right type. Templated values ({@code "{{ x }}"}) are checked after rendering.
 */
public final class ArgSpec {
    public enum Type { STR, INT, BOOL, LIST, MAP, ANY }

    private final Map<String, Type> types = new LinkedHashMap<>();
    private final Set<String> required = new LinkedHashSet<>();
    private final Map<String, String> aliases = new LinkedHashMap<>();
    private boolean freeForm;
    private boolean openKeys;

    public static ArgSpec builder() {
        return new ArgSpec();
    }

    public ArgSpec req(String name, Type type) {
        types.put(name, type);
        required.add(name);
        return this;
    }

    /** The file attributes every file-writing module takes: {@code mode}, {@code owner}, {@code group}. */
    public ArgSpec fileAttributes() {
        return opt("mode", Type.ANY).opt("owner", Type.STR).opt("group", Type.STR);
    }

    public ArgSpec opt(String name, Type type) {
        types.put(name, type);
        return this;
    }

    /** {@code alias} is accepted and means {@code name}. */
    public ArgSpec alias(String alias, String name) {
        aliases.put(alias, name);
        return this;
    }

    /**
     * The module takes a free-form string ({@code command: ls -l}); it arrives as the argument
     * {@code _raw_params}.
     */
    public ArgSpec freeForm() {
        freeForm = true;
        types.put(RAW, Type.STR);
        return this;
    }

    public static final String RAW = "_raw_params";

    /**
     * The module accepts arguments of any name besides the declared ones (as {@code set_fact}
     * does: every key is a variable to set). Declared names are still type-checked.
     */
    public ArgSpec openKeys() {
        openKeys = true;
        return this;
    }

    public boolean acceptsAnyKey() { return openKeys; }

    public boolean isFreeForm() { return freeForm; }
    public Map<String, Type> types() { return Collections.unmodifiableMap(types); }
    public Set<String> required() { return Collections.unmodifiableSet(required); }
    public Map<String, String> aliases() { return Collections.unmodifiableMap(aliases); }

    /** The canonical name for a given argument name, or null when unknown. */
    public String canonical(String name) {
        if (types.containsKey(name)) return name;
        return aliases.get(name);
    }

    /** Every accepted spelling, for did-you-mean. */
    public Set<String> allNames() {
        Set<String> s = new LinkedHashSet<>(types.keySet());
        s.addAll(aliases.keySet());
        s.remove(RAW);
        return s;
    }
}
