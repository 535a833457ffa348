package io.rocectl.exec;

import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;

/**
 * A module that runs once per play on the control node, over every host of the play (like an
 * Ansible action plugin with {@code run_once}). Its result is reported for every play host.
 */
public interface ControllerModule extends Module {
    ModuleResult runOnController(Controller controller) throws InterruptedException;
}
