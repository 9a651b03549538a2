/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin helper process: loads the plugin files taskview hands it (already
 * opened and checked), runs their callbacks each refresh and answers over the
 * socket on PLUGIN_HELPER_FD, one WIRE_VALUES frame per plugin, right after
 * that plugin's callbacks. So whatever goes wrong while taskview waits for a
 * plugin's frame (a crash, a hang, output, garbage) is that plugin's doing.
 */
#include "plugin/plugin_helper.h"
#include "plugin/plugin_priv.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "util/i18n.h"

#define WHY_MAX 1024
/* Entry symbols of other majors probed to tell "wrong ABI" from "not a plugin". */
#define PROBE_MAJOR_MAX 16
/* taskview numbers plugins from 0; more than this is not a request of taskview's. */
#define INDEX_MAX 4096

typedef const struct taskview_plugin *(*entry_fn)(void);

struct hplugin {
	bool loaded;
	void *dl;
	struct taskview_plugin d;
	struct taskview_column *rawcols;
	struct plugin_colinfo *cols;
	bool *wanted;
	struct tv_pvalue *scratch;  /* one collect call's values */
	void *state;
	bool inited;                /* free_state is owed */
};

struct helper {
	struct hplugin *v;
	size_t n;
	int sock;
	int procfd;
	struct buf rx;
	struct buf tx;
	struct buf entries;
	struct buf output;
};

/* --- talking to taskview --- */

/*
 * Appends what was written to stdout and stderr since the last answer: what
 * the plugin that just ran wrote, handed over with its answer so that no
 * other plugin is blamed for it. The rest of a flood is read and dropped.
 */
static void put_output(struct helper *hp)
{
	fflush(stdout);
	fflush(stderr);
	struct buf *o = &hp->output;
	buf_reset(o);
	bool cut = false;
	char tmp[4096];
	for (;;) {
		ssize_t r = read(PLUGIN_HELPER_OUT_FD, tmp, sizeof(tmp));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t room = o->len < PLUGIN_OUTPUT_KEEP ? PLUGIN_OUTPUT_KEEP - o->len : 0;
		buf_add(o, tmp, (size_t)r < room ? (size_t)r : room);
		cut |= (size_t)r > room;
	}
	wire_bytes(&hp->tx, o->len ? o->data : "", o->len);
	wire_u8(&hp->tx, cut);
}

static void helper_send(struct helper *hp)
{
	size_t done = 0;
	while (done < hp->tx.len) {
		ssize_t w = send(hp->sock, hp->tx.data + done, hp->tx.len - done, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(0); /* taskview is gone */
		done += (size_t)w;
	}
	buf_reset(&hp->tx);
}

/* The next frame from taskview, blocking; exits when taskview has gone. */
static uint32_t helper_recv(struct helper *hp, struct wire_reader *r, size_t *total)
{
	for (;;) {
		uint32_t type;
		int f = wire_frame(hp->rx.data, hp->rx.len, &type, r, total);
		if (f < 0)
			_exit(3);
		if (f > 0)
			return type;
		char tmp[65536];
		ssize_t n = recv(hp->sock, tmp, sizeof(tmp), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);
		buf_add(&hp->rx, tmp, (size_t)n);
		if (hp->rx.oom)
			_exit(3);
	}
}

static void helper_consume(struct helper *hp, size_t total)
{
	memmove(hp->rx.data, hp->rx.data + total, hp->rx.len - total);
	hp->rx.len -= total;
}

static void send_refused(struct helper *hp, uint32_t index, const char *why)
{
	size_t f = wire_begin(&hp->tx, WIRE_REFUSED);
	wire_u32(&hp->tx, index);
	wire_str(&hp->tx, why);
	put_output(hp);
	wire_end(&hp->tx, f);
	helper_send(hp);
}

/* --- loading --- */

static entry_fn find_entry(void *dl, const char *symbol)
{
	void *sym = dlsym(dl, symbol);
	entry_fn fn = NULL;
	/* POSIX guarantees this round trip; memcpy keeps pedantic compilers quiet */
	if (sym)
		memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

/* The ABI major a file was built for when it is not ours; -1 if none. */
static int other_major(void *dl)
{
	for (int m = 0; m <= PROBE_MAJOR_MAX; m++) {
		char sym[32];
		if (m == TASKVIEW_PLUGIN_ABI_MAJOR)
			continue;
		snprintf(sym, sizeof(sym), "taskview_plugin_v%d", m);
		if (dlsym(dl, sym))
			return m;
	}
	return -1;
}

/* dlerror() names the /proc/self/fd path we opened; users know the file by its own name. */
static void dl_error_text(char *buf, size_t n, const char *fdpath, const char *path)
{
	const char *e = dlerror();
	if (!e)
		e = "unknown error";
	size_t l = strlen(fdpath);
	if (strncmp(e, fdpath, l) == 0)
		snprintf(buf, n, "%s%s", path, e + l);
	else
		snprintf(buf, n, "%s", e);
}

/*
 * With elevated privileges the helper is as careful as taskview: anyone who may
 * run the binary may also start it as the helper and hand it a file of their
 * own. Only a file of the built-in directory, by the rules of root.
 */
static const char *secure_refusal(int fd, const char *path, char *why, size_t whylen)
{
	char tmp[WHY_MAX];
	size_t dl = strlen(TV_PLUGINDIR);
	struct stat a, b;
	if (strncmp(path, TV_PLUGINDIR, dl) != 0 || path[dl] != '/' || strchr(path + dl + 1, '/')) {
		snprintf(why, whylen, _("refused: with elevated privileges only plugins from %s are loaded"), TV_PLUGINDIR);
	} else if (plugin_trust_dir(TV_PLUGINDIR, false, tmp, sizeof(tmp)) ||
	           plugin_trust_file(fd, path, tmp, sizeof(tmp))) {
		snprintf(why, whylen, _("refused: %s"), tmp);
	} else if (fstat(fd, &a) < 0 || stat(path, &b) < 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		snprintf(why, whylen, _("refused: with elevated privileges only plugins from %s are loaded"), TV_PLUGINDIR);
	} else {
		return NULL;
	}
	return why;
}

static void hplugin_free(struct hplugin *p)
{
	if (p->inited && p->d.free_state)
		p->d.free_state(p->state);
	if (p->scratch)
		plugin_values_clear(p->scratch, p->d.ncolumns);
	plugin_colinfo_free(p->cols, p->d.ncolumns);
	free(p->rawcols);
	free(p->wanted);
	free(p->scratch);
	if (p->dl)
		dlclose(p->dl);
	memset(p, 0, sizeof(*p));
}

/* Loads one file; "stage: detail" in why when refused. */
static int hplugin_load(struct hplugin *p, int fd, const char *path, char *why, size_t whylen)
{
	if (plugin_secure() && secure_refusal(fd, path, why, whylen))
		return -1;
	/* load the file taskview checked, not whatever the path names by now */
	char fdpath[64];
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	p->dl = dlopen(fdpath, RTLD_NOW | RTLD_LOCAL);
	if (!p->dl) {
		char e[WHY_MAX];
		dl_error_text(e, sizeof(e), fdpath, path);
		snprintf(why, whylen, _("cannot load: %s"), e);
		return -1;
	}
	entry_fn entry = find_entry(p->dl, "taskview_plugin_v1");
	int major;
	if (!entry && (major = other_major(p->dl)) >= 0) {
		snprintf(why, whylen, _("ABI mismatch: the plugin needs ABI %d (taskview_plugin_v%d), taskview %s provides ABI %d.%d"),
		         major, major, TV_VERSION, TASKVIEW_PLUGIN_ABI_MAJOR, TASKVIEW_PLUGIN_ABI_MINOR);
		return -1;
	}
	if (!entry) {
		snprintf(why, whylen, "%s", _("not a taskview plugin: no taskview_plugin_v1 symbol"));
		return -1;
	}
	const struct taskview_plugin *raw = entry();
	if (!raw) {
		snprintf(why, whylen, "%s", _("not a taskview plugin: taskview_plugin_v1 returned NULL"));
		return -1;
	}
	if (plugin_validate(raw, &p->d, &p->rawcols, &p->cols, why, whylen) < 0)
		return -1;
	p->wanted = calloc(p->d.ncolumns, sizeof(*p->wanted));
	p->scratch = calloc(p->d.ncolumns, sizeof(*p->scratch));
	if (!p->wanted || !p->scratch) {
		snprintf(why, whylen, _("cannot load: %s"), strerror(ENOMEM));
		return -1;
	}
	plugin_values_clear(p->scratch, p->d.ncolumns);
	if (p->d.init) {
		int32_t rc = p->d.init(plugin_api_host(), &p->state);
		if (rc != 0) {
			snprintf(why, whylen, _("init failed: %s"), rc < 0 ? strerror(-rc) : _("non-zero return"));
			return -1;
		}
		p->inited = true;
	}
	p->loaded = true;
	return 0;
}

static void helper_load(struct helper *hp, struct wire_reader *r)
{
	uint32_t index = wire_get_u32(r);
	int fd = (int)wire_get_u32(r);
	bool null;
	char *path = wire_get_str(r, 4096, &null);
	if (!wire_done(r) || !path || index >= INDEX_MAX)
		_exit(3);
	if (index >= hp->n) {
		struct hplugin *v = realloc(hp->v, (index + 1) * sizeof(*v));
		if (!v)
			_exit(3);
		memset(v + hp->n, 0, (index + 1 - hp->n) * sizeof(*v));
		hp->v = v;
		hp->n = index + 1;
	}
	struct hplugin *p = &hp->v[index];
	hplugin_free(p);
	char why[WHY_MAX];
	if (hplugin_load(p, fd, path, why, sizeof(why)) < 0) {
		hplugin_free(p);
		send_refused(hp, index, why);
	} else {
		size_t f = wire_begin(&hp->tx, WIRE_LOADED);
		wire_u32(&hp->tx, index);
		plugin_decl_put(&hp->tx, &p->d, p->rawcols);
		put_output(hp);
		wire_end(&hp->tx, f);
		helper_send(hp);
	}
	close(fd);
	free(path);
}

/* --- one refresh --- */

static int64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool applies_to(enum col_applies a, bool is_thread)
{
	return a == COL_ROWS_BOTH || (a == COL_ROWS_THREAD) == is_thread;
}

struct asked {
	struct hplugin *p;
	uint32_t index;
	const unsigned char *shown; /* one byte per column */
};

/* Runs one plugin over every task and sends its WIRE_VALUES. */
static void helper_run_plugin(struct helper *hp, uint32_t seq, const struct asked *a, struct taskview_task *tasks,
                              size_t ntasks)
{
	struct hplugin *p = a->p;
	const struct taskview_host *host = plugin_api_host();
	uint32_t n = p->d.ncolumns, count = 0;
	buf_reset(&hp->entries);
	int64_t t0 = thread_cpu_ns();
	if (p->d.begin)
		p->d.begin(p->state, host);
	for (size_t i = 0; i < ntasks; i++) {
		bool any = false;
		for (uint32_t k = 0; k < n; k++) {
			p->wanted[k] = a->shown[k] && applies_to(p->cols[k].applies, tasks[i].is_thread);
			any |= p->wanted[k];
		}
		if (!any)
			continue;
		struct taskview_values v = {.pv = p->scratch, .cols = p->cols, .wanted = p->wanted, .n = n};
		p->d.collect(p->state, host, &tasks[i], &v);
		for (uint32_t k = 0; k < n; k++) {
			const struct tv_pvalue *pv = &p->scratch[k];
			if (!pv->known || !p->wanted[k])
				continue;
			switch (p->cols[k].type) {
			case TASKVIEW_TYPE_STRING:
				wire_put_value(&hp->entries, (uint32_t)i, k, WIRE_STRING, pv->s, strlen(pv->s));
				break;
			case TASKVIEW_TYPE_FLOAT:
			case TASKVIEW_TYPE_PERCENT:
				wire_put_value(&hp->entries, (uint32_t)i, k, WIRE_FLOAT, &pv->f, sizeof(pv->f));
				break;
			default:
				wire_put_value(&hp->entries, (uint32_t)i, k, WIRE_INT, &pv->i, sizeof(pv->i));
				break;
			}
			count++;
		}
		plugin_values_clear(p->scratch, n);
	}
	if (p->d.end)
		p->d.end(p->state, host);
	int64_t spent = thread_cpu_ns() - t0;
	size_t f = wire_begin(&hp->tx, WIRE_VALUES);
	wire_u32(&hp->tx, seq);
	wire_u32(&hp->tx, a->index);
	wire_u64(&hp->tx, (uint64_t)spent);
	wire_u32(&hp->tx, count);
	buf_add(&hp->tx, hp->entries.data, hp->entries.len);
	put_output(hp);
	wire_end(&hp->tx, f);
	if (hp->tx.oom || hp->entries.oom)
		_exit(3);
	helper_send(hp);
}

/* Appends the decimal digits of v (not negative) at p; returns the end. */
static char *put_decimal(char *p, int32_t v)
{
	char tmp[12];
	size_t n = 0;
	uint32_t u = v < 0 ? 0 : (uint32_t)v;
	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* "TGID" or "TGID/task/TID", relative to /proc; by hand, since it is done for every task. */
static void task_dir(struct taskview_task *t)
{
	char *p = put_decimal(t->dir, t->tgid);
	if (t->is_thread) {
		memcpy(p, "/task/", 6);
		p = put_decimal(p + 6, t->tid);
	}
	*p = '\0';
}

static void helper_collect(struct helper *hp, struct wire_reader *r)
{
	uint32_t seq = wire_get_u32(r);
	uint32_t nplug = wire_get_u32(r);
	if (r->bad || nplug > hp->n)
		_exit(3);
	struct asked *asked = calloc(nplug ? nplug : 1, sizeof(*asked));
	if (!asked)
		_exit(3);
	for (uint32_t j = 0; j < nplug; j++) {
		uint32_t index = wire_get_u32(r);
		uint32_t ncols = wire_get_u32(r);
		if (r->bad || index >= hp->n || !hp->v[index].loaded || ncols != hp->v[index].d.ncolumns ||
		    r->left < ncols)
			_exit(3);
		asked[j] = (struct asked){.p = &hp->v[index], .index = index, .shown = r->p};
		r->p += ncols;
		r->left -= ncols;
	}
	uint32_t ntasks = wire_get_u32(r);
	/* each task takes 13 bytes or more */
	if (r->bad || ntasks > r->left / 13)
		_exit(3);
	struct taskview_task *tasks = malloc((ntasks ? ntasks : 1) * sizeof(*tasks));
	if (!tasks)
		_exit(3);
	for (uint32_t i = 0; i < ntasks; i++) {
		struct taskview_task *t = &tasks[i];
		wire_get_task(r, &t->tid, &t->tgid, &t->is_thread, t->comm, sizeof(t->comm));
		t->procfd = hp->procfd;
		task_dir(t);
	}
	if (!wire_done(r))
		_exit(3);
	for (uint32_t j = 0; j < nplug; j++)
		helper_run_plugin(hp, seq, &asked[j], tasks, ntasks);
	free(tasks);
	free(asked);
}

/* --- the process --- */

/* Ends the helper when taskview's end of the socket closes, even while a
 * plugin loops: a taskview that was killed leaves nothing running. */
static void *watchdog(void *arg)
{
	struct pollfd p = {.fd = *(const int *)arg, .events = 0};
	for (;;)
		if (poll(&p, 1, -1) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)))
			_exit(0);
	return NULL;
}

static int helper_main(void)
{
	static const int sock = PLUGIN_HELPER_FD;
	struct stat st;
	if (fstat(sock, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		fprintf(stderr, "taskview: %s %s\n", PLUGIN_HELPER_ARG, _("is for taskview's own use"));
		return 2;
	}
	close(PLUGIN_HELPER_EXE_FD);
	/* nothing of root's or of file capabilities reaches plugin code: with
	 * CAP_SYS_PTRACE it could open taskview's terminal through /proc */
	char why[WHY_MAX];
	if (plugin_confine_helper(why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: %s\n", _("cannot give up privileges"), why);
		return 3;
	}
	/* a crashing plugin leaves no core file of taskview's helper behind */
	struct rlimit rl;
	if (getrlimit(RLIMIT_CORE, &rl) == 0) {
		rl.rlim_cur = 0;
		setrlimit(RLIMIT_CORE, &rl);
	}
	prctl(PR_SET_NAME, "taskview-plugin", 0, 0, 0);
	/* a plugin's lines reach taskview as they are written, not at exit */
	setvbuf(stdout, NULL, _IOLBF, 0);

	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_t th;
	int rc = pthread_create(&th, NULL, watchdog, (void *)&sock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
		return 3;
	pthread_detach(th);

	struct helper hp = {.sock = sock};
	buf_init(&hp.rx);
	buf_init(&hp.tx);
	buf_init(&hp.entries);
	buf_init(&hp.output);
	hp.procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (hp.procfd < 0)
		return 3;
	for (;;) {
		struct wire_reader r;
		size_t total;
		uint32_t type = helper_recv(&hp, &r, &total);
		switch (type) {
		case WIRE_LOAD:
			helper_load(&hp, &r);
			break;
		case WIRE_DROP: {
			uint32_t index = wire_get_u32(&r);
			if (wire_done(&r) && index < hp.n)
				hplugin_free(&hp.v[index]);
			break;
		}
		case WIRE_COLLECT:
			helper_collect(&hp, &r);
			break;
		case WIRE_QUIT:
			for (size_t i = 0; i < hp.n; i++)
				hplugin_free(&hp.v[i]);
			free(hp.v);
			buf_free(&hp.rx);
			buf_free(&hp.tx);
			buf_free(&hp.entries);
			buf_free(&hp.output);
			close(hp.procfd);
			return 0;
		default:
			_exit(3);
		}
		helper_consume(&hp, total);
	}
}

int plugin_helper_dispatch(int argc, char **argv)
{
	if (argc != 2 || strcmp(argv[1], PLUGIN_HELPER_ARG) != 0)
		return -1;
	return helper_main();
}
