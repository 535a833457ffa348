package io.rocectl.playbook;

import io.rocectl.module.ModuleRegistry;

import java.nio.file.Files;
import java.nio.file.Path;

/** Loader tests' playbooks: YAML text written as {@code pb.yaml} in a directory, loaded with the built-in modules. */
final class PlaybookText {
    private PlaybookText() {}

    static Playbook load(Path dir, String yaml) throws Exception {
        Path p = dir.resolve("pb.yaml");
        Files.writeString(p, yaml);
        return new PlaybookLoader(ModuleRegistry.builtin()).load(p);
    }
}
