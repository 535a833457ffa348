package io.rocectl.exec;

import io.rocectl.event.RunListener;
import io.rocectl.module.ModuleRegistry;

import java.util.Map;
import java.util.concurrent.ExecutorService;

/** What every play of one run shares: inventory, modules, options, hosts' state, connections, forks. */
record RunContext(HostInventory inventory, ModuleRegistry modules, RunOptions opts, RunListener listener,
                  Cancel cancel, Map<String, HostState> hosts, String playbookDir, ConnectionPool pool,
                  TaskExecutor exec, ExecutorService forks, RunState state) {
}
