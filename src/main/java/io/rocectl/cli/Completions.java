package io.rocectl.cli;

import io.rocectl.lab.Faults;
import io.rocectl.probe.HeavyProbe;
import io.rocectl.probe.PairSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Values of enumerated options, for shell completion ({@code completionCandidates}) and help. Each
 * list comes from the code that accepts the values, so completion cannot offer a value the option
 * refuses.
 */
final class Completions {
    private Completions() {}

    /** {@code --pairs}. */
    static final class Pairs implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> l = new ArrayList<>();
            for (PairSet p : PairSet.values()) l.add(p.cliName());
            return l.iterator();
        }
    }

    /** {@code --layers} (the cheap layers). */
    static final class Layers implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("link", "arp", "route", "ip").iterator();
        }
    }

    /** {@code --heavy}. */
    static final class Heavy implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> l = new ArrayList<>(List.of("none"));
            for (HeavyProbe.Tool t : HeavyProbe.Tool.values()) l.add(t.command());
            return l.iterator();
        }
    }

    /** {@code --output}. */
    static final class Output implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("text", "json").iterator();
        }
    }

    /** {@code --host-key-checking}. */
    static final class HostKeyChecking implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("strict", "accept-new", "off").iterator();
        }
    }

    /** {@code lab break FAULT}. */
    static final class LabFaults implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Faults.NAMES.iterator();
        }
    }

    /** {@code lab up --netcfg}. */
    static final class Netcfg implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("none", "networkd").iterator();
        }
    }
}
