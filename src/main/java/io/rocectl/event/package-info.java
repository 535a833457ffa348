/**
 * Run events and their reporters: the engine emits, {@link io.rocectl.event.ConsoleReporter} and {@link io.rocectl.event.JsonReporter} render.
 */
package io.rocectl.event;
