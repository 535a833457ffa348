package io.rocectl.exec;

import io.rocectl.event.RunListener;
import io.rocectl.module.ModuleRegistry;

import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * What every play of one run shares: inventory, modules, options, hosts' state, connections, forks.
 *
 * @param hosts    the hosts the plays run on (their stats make the recap)
 * @param hostvars every inventory host, also those --limit leaves out ({@code hostvars})
 */
record RunContext(HostInventory inventory, ModuleRegistry modules, RunOptions opts, RunListener listener,
                  Cancel cancel, Map<String, HostRunState> hosts, HostVarsView hostvars, String playbookDir,
                  ConnectionPool pool,
                  TaskExecutor exec, ExecutorService forks, RunState state) {
}
