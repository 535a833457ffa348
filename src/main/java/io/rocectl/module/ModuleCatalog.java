package io.rocectl.module;

import java.util.Set;

/**
 * The modules a build provides, by name, made only when a playbook names them: making all of them
 * (each class loaded and initialised) was about a tenth of a one-task run's CPU time. The build's
 * catalog is found by ServiceLoader ({@code META-INF/services/io.rocectl.module.ModuleCatalog}), so
 * this package names no implementation.
 */
public interface ModuleCatalog {
    /** Every module name, as {@link Module#name()} gives it. */
    Set<String> names();

    /** A new instance of the module {@code name}, one of {@link #names()}. */
    Module create(String name);
}
