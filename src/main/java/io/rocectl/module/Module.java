package io.rocectl.module;

import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

/**
 * A task action. It reads the host's state (facts), plans the commands that would bring the host
 * to the desired state (a pure function, testable from captured outputs), and in normal mode
 * applies them; in check mode it reports what would change and touches nothing.
 * Implementations are stateless and shared by all hosts; the build's {@link ModuleCatalog} lists
 * them, and each is made the first time a playbook names it.
 */
public interface Module {
    String name();

    ArgSpec args();

    /**
     * Runs on one host. A module failure is returned as {@link ModuleResult#failed}; a
     * {@link TransportException} makes the host unreachable.
     */
    ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException;

    /**
     * Whether a successful result's message is registered as {@code msg} (it is always shown on
     * the console). False for modules whose Ansible counterpart returns no {@code msg} when it
     * succeeds ({@code file}, {@code copy}), so a registered result has the same keys.
     */
    default boolean registersMessage() {
        return true;
    }

    /**
     * What the console prints under a successful result's line, from its registered result (as
     * Ansible's callback prints {@code debug}'s message); null: nothing.
     */
    default java.util.Map<String, Object> shown(java.util.Map<String, Object> registered) {
        return null;
    }
}
