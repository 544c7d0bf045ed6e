/**
 * The one located-YAML reader: a YAML document as a tree of values that know their file, line and column, with the
 * one duplicate-key rule (warn, take the last) and vault-encrypted text left opaque. It imports nothing of
 * fleetfix but the root package.
 */
package dev.fleetfix.yaml;
