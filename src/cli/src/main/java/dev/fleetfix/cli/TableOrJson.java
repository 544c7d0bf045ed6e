package dev.fleetfix.cli;

/** What a command that prints a table or one JSON document prints ({@code --format table|json}). */
enum TableOrJson {
    TABLE,
    JSON;

    /** {@code table}, {@code json}: what completion offers. */
    static final class Words extends EnumWords<TableOrJson> {
        Words() {
            super(TableOrJson.class);
        }
    }
}
