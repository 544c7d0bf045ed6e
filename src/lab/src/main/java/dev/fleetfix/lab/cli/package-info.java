/**
 * {@code fleetfix lab}, a plug-in of the fleetfix command ({@code CommandPlugin}, found at run time when fleetfix-
 * lab.jar is on the class path), and its output.
 */
package dev.fleetfix.lab.cli;
