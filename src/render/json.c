#include "render/json.h"

#include <inttypes.h>
#include <string.h>

#include "util/json.h"

static void json_value(struct buf *out, const struct column *col, const struct tv_value *v)
{
	switch (v->kind) {
	case TV_V_UNKNOWN:
		buf_adds(out, "null");
		break;
	case TV_V_INT:
		buf_addf(out, "%" PRId64, v->i);
		break;
	case TV_V_FLOAT:
		json_add_double(out, v->f, col->type == COL_MS ? 3 : 2);
		break;
	case TV_V_STR:
		json_add_string(out, v->s, strlen(v->s));
		break;
	}
}

void json_render_sample(struct buf *out, const struct snapshot *s, double interval, const struct rows *rows,
			const struct colset *cs, const struct colsel *sel, const struct json_state *extra)
{
	buf_adds(out, "{\"timestamp\": ");
	json_add_double(out, s->wall, 3);
	buf_adds(out, ", \"interval\": ");
	json_add_double(out, interval, 3);
	if (extra && extra->name) {
		buf_addf(out, ", \"%s\": {\"state\": ", extra->name);
		json_add_string(out, extra->state, strlen(extra->state));
		buf_adds(out, ", \"message\": ");
		if (extra->message)
			json_add_string(out, extra->message, strlen(extra->message));
		else
			buf_adds(out, "null");
		buf_addc(out, '}');
	}
	buf_adds(out, ", \"tasks\": [");
	size_t ncols = sel ? sel->n : cs->n;
	for (size_t r = 0; r < rows->n; r++) {
		const struct row *row = &rows->v[r];
		buf_adds(out, r ? ", {" : "{");
		buf_adds(out, row->is_thread ? "\"kind\": \"thread\"" : "\"kind\": \"process\"");
		/* with -o, the identity of each task is still carried */
		if (sel && colset_index(cs, "pid") >= 0 && !colsel_has(sel, colset_index(cs, "pid")))
			buf_addf(out, ", \"pid\": %d", row->task->tid);
		if (sel && colset_index(cs, "tgid") >= 0 && !colsel_has(sel, colset_index(cs, "tgid")))
			buf_addf(out, ", \"tgid\": %d", row->task->tgid);
		size_t npartial = 0;
		for (size_t c = 0; c < ncols; c++) {
			const struct column *col = &cs->cols[sel ? (size_t)sel->idx[c] : c];
			struct tv_value v = column_value(col, row->task);
			buf_adds(out, ", ");
			json_add_string(out, col->id, strlen(col->id));
			buf_adds(out, ": ");
			json_value(out, col, &v);
			npartial += v.partial;
		}
		/* the ids of the values above that are lower bounds */
		buf_adds(out, ", \"partial\": [");
		for (size_t c = 0, k = 0; c < ncols && k < npartial; c++) {
			const struct column *col = &cs->cols[sel ? (size_t)sel->idx[c] : c];
			if (!column_value(col, row->task).partial)
				continue;
			if (k++)
				buf_adds(out, ", ");
			json_add_string(out, col->id, strlen(col->id));
		}
		buf_adds(out, "]}");
	}
	buf_adds(out, "]}\n");
}
