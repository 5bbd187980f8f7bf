/* Exact cubeless win chances of every Hypergammon position, by value iteration (nardy/ai/hyper_exact.py).

A side is its three checkers' locations in its own frame: 0 = borne off, 1..24 its points (1 = its ace point),
25 = the bar; a side's index is the rank of the sorted triple among combinations_with_replacement(range(26), 3)
(3,276 of them). table[me * 3276 + opp] is the chance that the side on roll ("me") wins, both sides playing every
roll to the move that maximises their own win chance. The move rules are short nardy's (backgammon's): enter from
the bar first, a point with two or more opposing checkers is closed, a single one is hit, bear-off with every
checker at home (a higher die only from the highest point), as many dice as can be played, and the larger die when
only one of two can be. */

#include <math.h>
#include <stdint.h>
#include <string.h>

#define LOCATIONS 26
#define BAR 25
#define SIDES 3276
#define MAX_ENDS 512

static int rank_table[LOCATIONS][LOCATIONS][LOCATIONS];
static unsigned char triples[SIDES][3];
static int ready = 0;

static const int ROLL_DIE1[21] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6};
static const int ROLL_DIE2[21] = {1, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 5, 6, 6};

static void prepare(void) {
    int n = 0;
    if (ready) return;
    for (int a = 0; a < LOCATIONS; a++)
        for (int b = a; b < LOCATIONS; b++)
            for (int c = b; c < LOCATIONS; c++) {
                rank_table[a][b][c] = n;
                triples[n][0] = (unsigned char)a;
                triples[n][1] = (unsigned char)b;
                triples[n][2] = (unsigned char)c;
                n++;
            }
    ready = 1;
}

static inline int rank_of(const unsigned char *side) {
    unsigned char a = side[0], b = side[1], c = side[2], t;
    if (a > b) { t = a; a = b; b = t; }
    if (b > c) { t = b; b = c; c = t; }
    if (a > b) { t = a; a = b; b = t; }
    return rank_table[a][b][c];
}

/* Play one die with checker i of me; returns 1 and updates me (and opp on a hit) when the step is legal. */
static int step(unsigned char *me, unsigned char *opp, int i, int die) {
    int source = me[i];
    int target;
    if (source == 0) return 0;
    if (source != BAR && (me[0] == BAR || me[1] == BAR || me[2] == BAR)) return 0;
    target = source == BAR ? BAR - die : source - die;
    if (target >= 1) {
        int theirs = BAR - target, count = 0, hit = -1;
        for (int j = 0; j < 3; j++)
            if (opp[j] == theirs) { count++; hit = j; }
        if (count >= 2) return 0;
        if (count == 1) opp[hit] = BAR;
        me[i] = (unsigned char)target;
        return 1;
    }
    for (int j = 0; j < 3; j++)
        if (me[j] > 6) return 0;
    if (target < 0)
        for (int j = 0; j < 3; j++)
            if (me[j] > source) return 0;
    me[i] = 0;
    return 1;
}

typedef struct {
    const float *table;      /* for values; NULL when only listing ends */
    double best[5];          /* best value per number of dice used (index 5 unused) */
    double best_larger;      /* best value of the one-die plays that used the larger die */
    int reached[5];
    int reached_larger;
    int larger;
    int ends;                /* listing: the distinct (me, opp, used, larger) ends */
    int32_t end_me[MAX_ENDS], end_opp[MAX_ENDS], end_used[MAX_ENDS], end_larger[MAX_ENDS];
} Search;

static void record(Search *s, const unsigned char *me, const unsigned char *opp, int used, int larger) {
    int m = rank_of(me), o = rank_of(opp);
    if (s->table == NULL) {
        for (int k = 0; k < s->ends; k++)
            if (s->end_me[k] == m && s->end_opp[k] == o && s->end_used[k] == used && s->end_larger[k] == larger)
                return;
        if (s->ends < MAX_ENDS) {
            s->end_me[s->ends] = m;
            s->end_opp[s->ends] = o;
            s->end_used[s->ends] = used;
            s->end_larger[s->ends] = larger;
            s->ends++;
        }
        return;
    }
    double value = m == 0 ? 1.0 : 1.0 - (double)s->table[(size_t)o * SIDES + (size_t)m];
    if (!s->reached[used] || value > s->best[used]) {
        s->best[used] = value;
        s->reached[used] = 1;
    }
    if (used == 1 && larger) {
        if (!s->reached_larger || value > s->best_larger) {
            s->best_larger = value;
            s->reached_larger = 1;
        }
    }
}

/* dice holds the dice still to play (count of them); for a double every die is the same. */
static void search(Search *s, const unsigned char *me, const unsigned char *opp, const int *dice, int count,
                   int used, int larger) {
    record(s, me, opp, used, larger);
    if (count == 0 || (me[0] == 0 && me[1] == 0 && me[2] == 0)) return;
    for (int k = 0; k < count; k++) {
        if (k > 0 && dice[k] == dice[k - 1]) continue;
        int rest[4], n = 0;
        for (int j = 0; j < count; j++)
            if (j != k) rest[n++] = dice[j];
        for (int i = 0; i < 3; i++) {
            if ((i > 0 && me[i] == me[0]) || (i > 1 && me[i] == me[1])) continue;
            unsigned char next_me[3], next_opp[3];
            memcpy(next_me, me, 3);
            memcpy(next_opp, opp, 3);
            if (!step(next_me, next_opp, i, dice[k])) continue;
            search(s, next_me, next_opp, rest, n, used + 1, used == 0 ? dice[k] == s->larger : larger);
        }
    }
}

static void start(Search *s, const float *table, const unsigned char *me, const unsigned char *opp, int d1, int d2) {
    int dice[4];
    int count = d1 == d2 ? 4 : 2;
    memset(s, 0, sizeof(*s));
    s->table = table;
    s->larger = d1 > d2 ? d1 : d2;
    if (d1 == d2) {
        dice[0] = dice[1] = dice[2] = dice[3] = d1;
    } else {
        dice[0] = d1 < d2 ? d1 : d2;
        dice[1] = s->larger;
    }
    search(s, me, opp, dice, count, 0, 0);
}

static int most_used(const Search *s) {
    int top = 0;
    for (int u = 0; u < 5; u++)
        if (s->reached[u]) top = u;
    return top;
}

/* The value of me on roll with d1-d2 given the table: the best legal end. */
static double roll_value(const float *table, const unsigned char *me, const unsigned char *opp, int d1, int d2) {
    Search s;
    start(&s, table, me, opp, d1, d2);
    int top = most_used(&s);
    if (top == 1 && d1 != d2 && s.reached_larger) return s.best_larger;
    return s.best[top];
}

static int conflict(const unsigned char *me, const unsigned char *opp) {
    for (int i = 0; i < 3; i++) {
        if (me[i] < 1 || me[i] > 24) continue;
        for (int j = 0; j < 3; j++)
            if (opp[j] == BAR - me[i]) return 1;
    }
    return 0;
}

/* Public: the number of side indices (3,276). */
int hyper_sides(void) {
    prepare();
    return SIDES;
}

/* Public: 1 when the two sides cannot stand on the board together (a point held by both). */
int hyper_conflict(int me, int opp) {
    prepare();
    return conflict(triples[me], triples[opp]);
}

/* Public: the legal ends of me's turn with d1-d2 as (me, opp) index pairs in out (2 * MAX_ENDS ints); returns
   how many. me and opp are side indices; the ends are the positions after the turn, in the mover's frame. */
int hyper_ends(int me, int opp, int d1, int d2, int32_t *out) {
    Search s;
    int top, n = 0, with_larger = 0;
    prepare();
    start(&s, NULL, triples[me], triples[opp], d1, d2);
    top = 0;
    for (int k = 0; k < s.ends; k++)
        if (s.end_used[k] > top) top = s.end_used[k];
    if (top == 1 && d1 != d2)
        for (int k = 0; k < s.ends; k++)
            if (s.end_used[k] == 1 && s.end_larger[k]) with_larger = 1;
    for (int k = 0; k < s.ends; k++) {
        if (s.end_used[k] != top || (with_larger && !s.end_larger[k])) continue;
        int seen = 0;
        for (int j = 0; j < n; j++)
            if (out[2 * j] == s.end_me[k] && out[2 * j + 1] == s.end_opp[k]) seen = 1;
        if (seen) continue;
        out[2 * n] = s.end_me[k];
        out[2 * n + 1] = s.end_opp[k];
        n++;
    }
    return n;
}

/* Public: fill the table's starting values (0.5; 0 where the opponent has borne off all). */
void hyper_initialise(float *table) {
    prepare();
    for (size_t k = 0; k < (size_t)SIDES * SIDES; k++) table[k] = 0.5f;
    for (size_t m = 0; m < SIDES; m++) table[m * SIDES] = 0.0f;
}

/* The value of position (m, o), me to roll, by the table: the average over the 21 rolls of the best end. */
static double position_value(const float *table, int m, int o) {
    const unsigned char *me = triples[m], *opp = triples[o];
    double value = 0.0;
    for (int r = 0; r < 21; r++) {
        int d1 = ROLL_DIE1[r], d2 = ROLL_DIE2[r];
        value += roll_value(table, me, opp, d1, d2) * (d1 == d2 ? 1.0 : 2.0) / 36.0;
    }
    return value;
}

/* Public: 1 when (me, opp) is a position of the table that sweeps update (both sides on the board together and
   neither finished). */
int hyper_live(int me, int opp) {
    prepare();
    return me != 0 && opp != 0 && !conflict(triples[me], triples[opp]);
}

/* Public: one sweep over the positions order[0..count) (indices me * 3276 + opp), updating the table in place
   (Gauss-Seidel; with OpenMP the threads share the table, which changes only the order updates are seen in);
   returns the largest change. */
double hyper_sweep(float *table, const int32_t *order, int64_t count) {
    double largest = 0.0;
    prepare();
#pragma omp parallel for schedule(dynamic, 4096) reduction(max : largest)
    for (int64_t k = 0; k < count; k++) {
        size_t at = (size_t)order[k];
        double value = position_value(table, (int)(at / SIDES), (int)(at % SIDES));
        double change = fabs(value - (double)table[at]);
        if (change > largest) largest = change;
        table[at] = (float)value;
    }
    return largest;
}

/* Public: the value of me on roll with d1-d2 by the table (the best end; a roll with no play passes the turn). */
double hyper_roll_value(const float *table, int me, int opp, int d1, int d2) {
    prepare();
    return roll_value(table, triples[me], triples[opp], d1, d2);
}
