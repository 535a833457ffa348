package io.rocectl.playbook;

import java.nio.file.Path;
import java.util.List;

/** A loaded, validated playbook. */
public record Playbook(Path file, List<Play> plays) {
}
