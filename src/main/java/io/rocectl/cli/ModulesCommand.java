package io.rocectl.cli;

import io.rocectl.module.Module;
import io.rocectl.module.ModuleRegistry;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code rocectl modules}: the modules a playbook can use, one a line, with where they come from. */
@Command(name = "modules", mixinStandardHelpOptions = true,
        description = "List the modules playbooks can use (also as ansible.builtin.NAME / ansible.posix.NAME).")
public final class ModulesCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        for (Module m : ModuleRegistry.builtin().all().values()) {
            String pkg = m.getClass().getPackageName();
            System.out.println(m.name() + "\t" + (pkg.endsWith(".roce") ? "rocectl (RoCE)" : "Ansible-compatible"));
        }
        return ExitCodes.OK;
    }
}
