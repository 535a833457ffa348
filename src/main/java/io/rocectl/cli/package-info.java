/**
 * picocli commands and mixins; maps exceptions to exit codes ({@link io.rocectl.cli.ExitCodes}). Nothing imports this package.
 */
package io.rocectl.cli;
