package io.rocectl.builtin;

import io.rocectl.builtin.core.AssertModule;
import io.rocectl.builtin.core.BlockInFileModule;
import io.rocectl.builtin.core.CommandModule;
import io.rocectl.builtin.core.CopyModule;
import io.rocectl.builtin.core.DebugModule;
import io.rocectl.builtin.core.FailModule;
import io.rocectl.builtin.core.FileModule;
import io.rocectl.builtin.core.IncludeRoleModule;
import io.rocectl.builtin.core.IncludeTasksModule;
import io.rocectl.builtin.core.IncludeVarsModule;
import io.rocectl.builtin.core.LineInFileModule;
import io.rocectl.builtin.core.PingModule;
import io.rocectl.builtin.core.ReplaceModule;
import io.rocectl.builtin.core.ServiceModule;
import io.rocectl.builtin.core.SetFactModule;
import io.rocectl.builtin.core.ShellModule;
import io.rocectl.builtin.core.StatModule;
import io.rocectl.builtin.core.SystemdModule;
import io.rocectl.builtin.core.TemplateModule;
import io.rocectl.builtin.core.WaitForModule;
import io.rocectl.builtin.roce.NcclEnvModule;
import io.rocectl.builtin.roce.RdmaIrqModule;
import io.rocectl.builtin.roce.RdmaLimitsModule;
import io.rocectl.builtin.roce.RoceArpModule;
import io.rocectl.builtin.roce.RoceFactsModule;
import io.rocectl.builtin.roce.RoceNeighModule;
import io.rocectl.builtin.roce.RocePersistModule;
import io.rocectl.builtin.roce.RoceProbeModule;
import io.rocectl.builtin.roce.RoceRoutingModule;
import io.rocectl.builtin.roce.RoceVerifyModule;
import io.rocectl.builtin.roce.SetupModule;
import io.rocectl.builtin.roce.SysctlModule;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleCatalog;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * This build's modules, by the name each gives itself (BuiltinModulesTest holds the two to the
 * same names); registered for {@link io.rocectl.module.ModuleRegistry} through ServiceLoader.
 */
public final class BuiltinModules implements ModuleCatalog {
    private static final Map<String, Supplier<Module>> MODULES = modules();

    private static Map<String, Supplier<Module>> modules() {
        Map<String, Supplier<Module>> m = new LinkedHashMap<>();
        // Ansible's builtins (and ansible.posix's sysctl)
        m.put("command", CommandModule::new);
        m.put("shell", ShellModule::new);
        m.put("ping", PingModule::new);
        m.put("lineinfile", LineInFileModule::new);
        m.put("blockinfile", BlockInFileModule::new);
        m.put("replace", ReplaceModule::new);
        m.put("copy", CopyModule::new);
        m.put("template", TemplateModule::new);
        m.put("file", FileModule::new);
        m.put("stat", StatModule::new);
        m.put("service", ServiceModule::new);
        m.put("systemd", SystemdModule::new);
        m.put("set_fact", SetFactModule::new);
        m.put("debug", DebugModule::new);
        m.put("assert", AssertModule::new);
        m.put("fail", FailModule::new);
        m.put("wait_for", WaitForModule::new);
        m.put("include_tasks", IncludeTasksModule::new);
        m.put("include_role", IncludeRoleModule::new);
        m.put("include_vars", IncludeVarsModule::new);
        m.put("setup", SetupModule::new);
        m.put("sysctl", SysctlModule::new);
        // the RoCE fix
        m.put("roce_facts", RoceFactsModule::new);
        m.put("roce_routing", RoceRoutingModule::new);
        m.put("roce_arp", RoceArpModule::new);
        m.put("roce_neigh", RoceNeighModule::new);
        m.put("roce_persist", RocePersistModule::new);
        m.put("nccl_env", NcclEnvModule::new);
        m.put("rdma_limits", RdmaLimitsModule::new);
        m.put("rdma_irq", RdmaIrqModule::new);
        m.put("roce_verify", RoceVerifyModule::new);
        m.put("roce_probe", RoceProbeModule::new);
        return m;
    }

    /** For ServiceLoader. */
    public BuiltinModules() {}

    @Override
    public Set<String> names() {
        return MODULES.keySet();
    }

    @Override
    public Module create(String name) {
        Supplier<Module> s = MODULES.get(name);
        if (s == null) throw new IllegalArgumentException("no module '" + name + "' in this build");
        return s.get();
    }
}
