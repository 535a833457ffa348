/**
 * The module contract: arguments spec (validated at load time), the per-host task context, results, and atomic remote files.
 */
package io.rocectl.module;
