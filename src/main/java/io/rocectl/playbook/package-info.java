/**
 * Immutable playbook records and their loader: YAML 1.1 node trees keep every value's line and column, so errors name the place and the token.
 */
package io.rocectl.playbook;
