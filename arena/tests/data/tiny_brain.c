/* A tiny Gomocup brain in C for the engine gate's tests (arena/tests/gate_engine.rs): a small
 * engine repository of its own, built by `cc` through a registry entry's `build` recipe, not
 * wuzi. It plays the empty point (near the stones) that scores best for its own lines and, with
 * BLOCK 1, for the opponent's lines it would cut; BLOCK 0 is the weakened commit: it never
 * blocks, so any open three of the opponent wins. Deterministic: the same position gives the
 * same move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 1
#define MAXN 20

static int n = 15;
static int board[MAXN][MAXN]; /* 0 empty, 1 own, 2 opponent */

/* Value of the line through (x, y) in direction (dx, dy) for `who` if it played there. */
static long line_value(int x, int y, int dx, int dy, int who) {
    int count = 1, open = 0;
    for (int s = -1; s <= 1; s += 2) {
        int cx = x + s * dx, cy = y + s * dy;
        while (cx >= 0 && cy >= 0 && cx < n && cy < n && board[cx][cy] == who) {
            count++;
            cx += s * dx;
            cy += s * dy;
        }
        if (cx >= 0 && cy >= 0 && cx < n && cy < n && board[cx][cy] == 0) open++;
    }
    if (count >= 5) return 10000000;
    if (open == 0) return 0;
    static const long open2[5] = {0, 1, 20, 1000, 100000};
    static const long half[5] = {0, 0, 5, 50, 5000};
    return open == 2 ? open2[count] : half[count];
}

static long point_value(int x, int y, int who) {
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    long v = 0;
    for (int d = 0; d < 4; d++) v += line_value(x, y, dirs[d][0], dirs[d][1], who);
    return v;
}

static int near_stone(int x, int y) {
    for (int dx = -2; dx <= 2; dx++)
        for (int dy = -2; dy <= 2; dy++) {
            int cx = x + dx, cy = y + dy;
            if (cx >= 0 && cy >= 0 && cx < n && cy < n && board[cx][cy]) return 1;
        }
    return 0;
}

static void play(void) {
    long best = -1;
    int bx = n / 2, by = n / 2;
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++) {
            if (board[x][y] || !near_stone(x, y)) continue;
            /* Attack is worth a little more than defence, so a win is taken over a block. */
            long v = point_value(x, y, 1) * 11 / 10 + BLOCK * point_value(x, y, 2);
            v = v * 64 - (abs(x - n / 2) + abs(y - n / 2));
            if (v > best) {
                best = v;
                bx = x;
                by = y;
            }
        }
    board[bx][by] = 1;
    printf("%d,%d\n", bx, by);
    fflush(stdout);
}

int main(void) {
    char line[256];
    int in_board = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        int x, y, w;
        line[strcspn(line, "\r\n")] = 0;
        if (in_board) {
            if (strcmp(line, "DONE") == 0) {
                in_board = 0;
                play();
            } else if (sscanf(line, "%d,%d,%d", &x, &y, &w) == 3 && x >= 0 && y >= 0 && x < n &&
                       y < n) {
                board[x][y] = w == 1 ? 1 : 2;
            }
        } else if (strncmp(line, "START", 5) == 0) {
            n = atoi(line + 5);
            if (n < 5 || n > MAXN) {
                printf("ERROR unsupported size\n");
                n = 15;
            } else {
                memset(board, 0, sizeof board);
                printf("OK\n");
            }
        } else if (strcmp(line, "RESTART") == 0) {
            memset(board, 0, sizeof board);
            printf("OK\n");
        } else if (strcmp(line, "BEGIN") == 0) {
            play();
        } else if (sscanf(line, "TURN %d,%d", &x, &y) == 2 && x >= 0 && y >= 0 && x < n && y < n) {
            board[x][y] = 2;
            play();
        } else if (strcmp(line, "BOARD") == 0) {
            memset(board, 0, sizeof board);
            in_board = 1;
        } else if (sscanf(line, "TAKEBACK %d,%d", &x, &y) == 2 && x >= 0 && y >= 0 && x < n &&
                   y < n) {
            board[x][y] = 0;
            printf("OK\n");
        } else if (strcmp(line, "ABOUT") == 0) {
            printf("name=\"tiny\", version=\"%d\", author=\"wuzi tests\"\n", BLOCK);
        } else if (strcmp(line, "END") == 0) {
            return 0;
        } else if (strncmp(line, "INFO", 4) == 0 || line[0] == 0) {
            /* no options */
        } else {
            printf("UNKNOWN %s\n", line);
        }
    }
    return 0;
}
