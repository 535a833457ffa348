package io.rocectl.builtin.core;

/**
 * {@code shell}: like {@link CommandModule} but the string runs as a script under
 * {@code sh -c} (or {@code executable}), so pipes, redirections and variables work. The script
 * is exactly what the user wrote, after templating: putting an untrusted variable into it is the
 * user's choice, as in Ansible (use {@code command} with {@code argv} or {@code | quote}).
 * {@code chdir} and {@code executable} still travel as positional parameters.
 */
public final class ShellModule extends CommandModule {
    public ShellModule() {
        super(true);
    }
}
