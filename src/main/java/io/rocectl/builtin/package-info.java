/**
 * Module implementations: {@code core} (Ansible's builtins) and {@code roce} (the RoCE fix); each registered through ServiceLoader.
 */
package io.rocectl.builtin;
