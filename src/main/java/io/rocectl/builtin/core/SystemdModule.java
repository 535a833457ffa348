package io.rocectl.builtin.core;

/** {@code systemd} (also {@code systemd_service}): the same as {@link ServiceModule}. */
public final class SystemdModule extends ServiceModule {
    public SystemdModule() {
        super("systemd");
    }
}
