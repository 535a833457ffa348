/**
 * Module implementations: {@code core} (Ansible's builtins) and {@code roce} (the RoCE fix), listed by
 * {@link io.rocectl.builtin.BuiltinModules}, the catalog ServiceLoader finds.
 */
package io.rocectl.builtin;
