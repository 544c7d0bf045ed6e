/**
 * How a step reads and changes the host: files edited idempotently with a backup, nothing written in check mode, and
 * commands read as the login user and written as root ({@code HostFiles}).
 */
package dev.fleetfix.steps.host;
