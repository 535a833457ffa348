package io.rocectl.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Defaults that depend on where rocectl is installed. */
final class Defaults {
    private Defaults() {}

    /**
     * The bundled fix playbook: {@code playbooks/roce-multinic.yaml} in the current directory, else
     * beside the launcher ({@code ROCECTL_HOME}, set by {@code ./rocectl}).
     */
    static Path fixPlaybook() {
        Path local = Path.of("playbooks", "roce-multinic.yaml");
        if (Files.isRegularFile(local)) return local;
        String home = System.getenv("ROCECTL_HOME");
        return home == null ? local : Path.of(home).resolve(local);
    }
}
