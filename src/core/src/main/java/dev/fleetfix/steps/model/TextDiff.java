package dev.fleetfix.steps.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Unified diffs of small text files (configuration files of a few hundred lines), from a longest
 * common subsequence table. Good enough for {@code --diff}; not meant for large files.
 */
public final class TextDiff {
    private static final int CONTEXT = 3;

    private TextDiff() {}

    private record Op(char kind, String line, int oldLine, int newLine) {}

    /** The diff of two texts, empty when equal. {@code before} null means the file did not exist. */
    public static String unified(String path, String before, String after) {
        List<String> a = before == null ? List.of() : lines(before);
        List<String> b = lines(after);
        if (a.equals(b)) {
            return "";
        }
        List<Op> ops = ops(a, b);
        StringBuilder out = new StringBuilder();
        out.append("--- ").append(before == null ? "/dev/null" : "a" + path).append('\n');
        out.append("+++ b").append(path).append('\n');
        int i = 0;
        while (i < ops.size()) {
            if (ops.get(i).kind() == ' ') {
                i++;
                continue;
            }
            int start = Math.max(0, i - CONTEXT);
            int end = i;
            int lastChange = i;
            while (end < ops.size() && end - lastChange <= 2 * CONTEXT) {
                if (ops.get(end).kind() != ' ') {
                    lastChange = end;
                }
                end++;
            }
            end = Math.min(ops.size(), lastChange + CONTEXT + 1);
            hunk(out, ops.subList(start, end));
            i = end;
        }
        return out.toString();
    }

    private static void hunk(StringBuilder out, List<Op> ops) {
        int oldStart = -1;
        int newStart = -1;
        int oldCount = 0;
        int newCount = 0;
        for (Op op : ops) {
            if (op.kind() != '+') {
                oldCount++;
                if (oldStart < 0) {
                    oldStart = op.oldLine();
                }
            }
            if (op.kind() != '-') {
                newCount++;
                if (newStart < 0) {
                    newStart = op.newLine();
                }
            }
        }
        out.append("@@ -")
                .append(oldCount == 0 ? Math.max(0, ops.get(0).oldLine() - 1) : oldStart)
                .append(',')
                .append(oldCount)
                .append(" +")
                .append(newCount == 0 ? Math.max(0, ops.get(0).newLine() - 1) : newStart)
                .append(',')
                .append(newCount)
                .append(" @@\n");
        for (Op op : ops) {
            out.append(op.kind()).append(op.line()).append('\n');
        }
    }

    private static List<Op> ops(List<String> a, List<String> b) {
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<Op> ops = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                ops.add(new Op(' ', a.get(i), i + 1, j + 1));
                i++;
                j++;
            } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
                ops.add(new Op('-', a.get(i), i + 1, j + 1));
                i++;
            } else {
                ops.add(new Op('+', b.get(j), i + 1, j + 1));
                j++;
            }
        }
        return ops;
    }

    private static List<String> lines(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return List.of(body.split("\n", -1));
    }
}
