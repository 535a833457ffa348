/**
 * The module contract: arguments spec (validated at load time), the per-host task context, results, atomic remote files, and the contract of a controller module (one that runs once per play on the control node, given a {@link io.rocectl.module.Controller}).
 */
package io.rocectl.module;
