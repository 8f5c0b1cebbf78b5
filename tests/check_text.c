// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strings from outside: UTF-8 validation and repair, cutting on character boundaries,
 * and the visible, XML and Markdown forms, over tables of hostile strings.
 */
#include "testlib.h"

#include <locale.h>
#include <wchar.h>

#include "lines.h"
#include "strbuf.h"
#include "text.h"

#define FFFD TEXT_REPLACEMENT

/* well-formed or not, and the repair */
static const struct {
	const char *in;
	bool valid;
	const char *repaired;
} utf8_cases[] = {
	{"plain ASCII", true, "plain ASCII"},
	{"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe", true,
	 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe"},
	{"\xff", false, FFFD},
	{"a\xffz", false, "a" FFFD "z"},
	{"\xc0\xaf", false, FFFD FFFD},			  /* overlong '/' */
	{"\xe0\x80\xaf", false, FFFD FFFD FFFD},	  /* overlong, three bytes */
	{"\xed\xa0\x80", false, FFFD FFFD FFFD},	  /* a surrogate */
	{"\xf4\x90\x80\x80", false, FFFD FFFD FFFD FFFD}, /* past U+10FFFF */
	{"\xe2\x82", false, FFFD},			  /* cut: one maximal subpart */
	{"\xe2\x82x", false, FFFD "x"},
	{"\xf0\x9f\x92", false, FFFD},
	{"\x80\x80", false, FFFD FFFD},
	{"", true, ""},
};

START_TEST(utf8_valid_and_repair)
{
	const char *in = utf8_cases[_i].in;
	size_t len = strlen(in), outlen;
	char *fixed = text_utf8_repair(in, len, &outlen);

	ck_assert_int_eq(text_utf8_valid(in, len), utf8_cases[_i].valid);
	ck_assert_str_eq(fixed, utf8_cases[_i].repaired);
	ck_assert_uint_eq(outlen, strlen(utf8_cases[_i].repaired));
	ck_assert(text_utf8_valid(fixed, outlen));
	free(fixed);

	char buf[64];
	text_copy(buf, sizeof(buf), in);
	ck_assert_str_eq(buf, utf8_cases[_i].repaired);
}
END_TEST

/* Cutting to n bytes never splits a character, whatever n. */
START_TEST(cut_on_boundaries)
{
	const char *s = "\xc3\xa9t\xc3\xa9 \xe2\x82\xac\xf0\x9f\x92\xbe\xe6\x97\xa5\xe6\x9c\xac";
	size_t len = strlen(s);

	for (size_t n = 1; n <= len + 1; n++) {
		char buf[64], fmt[64];
		text_copy(buf, n, s);
		ck_assert_msg(text_utf8_valid(buf, strlen(buf)), "text_copy to %zu", n);
		ck_assert_uint_lt(strlen(buf), n);
		ck_assert(!strncmp(buf, s, strlen(buf)));
		text_fmt(fmt, n, "%s", s);
		ck_assert_msg(text_utf8_valid(fmt, strlen(fmt)), "text_fmt to %zu", n);
		ck_assert_str_eq(fmt, buf);
		snprintf(buf, sizeof(buf), "%s", s);
		text_cut(buf, n - 1);
		ck_assert_str_eq(buf, fmt);
	}
}
END_TEST

START_TEST(fix_in_place)
{
	char field[8];

	memcpy(field, "ab\xff\xc3\xa9xyz", 8); /* not terminated, ill-formed */
	text_fix(field, sizeof(field));
	ck_assert_str_eq(field, "ab" FFFD "\xc3\xa9");
	memcpy(field, "abcdef\xc3", 8);
	text_fix(field, sizeof(field));
	ck_assert_str_eq(field, "abcdef");
}
END_TEST

/* the visible form: controls shown, never sent */
static const struct {
	const char *in, *visible, *xml, *md;
} escape_cases[] = {
	{"Micron P400m", "Micron P400m", "Micron P400m", "Micron P400m"},
	{"\x1b[2J\x1b]0;pwned\x07", "^[[2J^[]0;pwned^G", "^[[2J^[]0;pwned^G",
	 "^\\[\\[2J^\\[\\]0;pwned^G"},
	{"\x1bx\x1d(http://e)", "^[x^](http://e)", "^[x^](http://e)", "^\\[x^\\](http://e)"},
	{"a\nb\rc\td\x7f", "a^Jb^Mc^Id^?", "a^Jb^Mc^Id^?", "a^Jb^Mc^Id^?"},
	{"\xc2\x9b"
	 "31m",
	 FFFD "31m", FFFD "31m", FFFD "31m"}, /* C1 CSI */
	{"\xe2\x80\xae"
	 "evil",
	 FFFD "evil", FFFD "evil", FFFD "evil"},	 /* right-to-left override */
	{"x\xef\xbf\xbe", "x" FFFD, "x" FFFD, "x" FFFD}, /* non-character */
	{"\xff\xfe", FFFD FFFD, FFFD FFFD, FFFD FFFD},
	{"<script>alert(1)</script>", "<script>alert(1)</script>",
	 "&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;"},
	{"<img src=x onerror=\"a('b')\">", "<img src=x onerror=\"a('b')\">",
	 "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;",
	 "&lt;img src=x onerror=\"a('b')\"&gt;"},
	{"a|b *c* _d_ `e` [f](g) ~~h~~ \\", "a|b *c* _d_ `e` [f](g) ~~h~~ \\",
	 "a|b *c* _d_ `e` [f](g) ~~h~~ \\",
	 "a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) \\~\\~h\\~\\~ \\\\"},
	{"# heading", "# heading", "# heading", "\\# heading"},
	{"- item", "- item", "- item", "\\- item"},
	{"  + item", "  + item", "  + item", "  \\+ item"},
	{"12. item", "12. item", "12. item", "12\\. item"},
	{"7) item", "7) item", "7) item", "7\\) item"},
	{"16T16Q - 1.5 ms", "16T16Q - 1.5 ms", "16T16Q - 1.5 ms", "16T16Q - 1.5 ms"},
	{"101.7", "101.7", "101.7", "101.7"},
	{"#", "#", "#", "\\#"},
	{"#5 run", "#5 run", "#5 run", "#5 run"},
	{"--- x", "--- x", "--- x", "\\--- x"},
	{"Tom & Jerry", "Tom & Jerry", "Tom &amp; Jerry", "Tom &amp; Jerry"},
};

static char *captured(void (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, in);
	fclose(f);
	return buf;
}

static void md_line(FILE *out, const char *s)
{
	text_fput_md(out, s, true);
}

START_TEST(escaping)
{
	char buf[256], *s;

	text_visible(buf, sizeof(buf), escape_cases[_i].in);
	ck_assert_str_eq(buf, escape_cases[_i].visible);
	s = text_visible_dup(escape_cases[_i].in);
	ck_assert_str_eq(s, escape_cases[_i].visible);
	free(s);
	s = captured(text_fput_visible, escape_cases[_i].in);
	ck_assert_str_eq(s, escape_cases[_i].visible);
	free(s);
	s = captured(text_fput_xml, escape_cases[_i].in);
	ck_assert_str_eq(s, escape_cases[_i].xml);
	free(s);
	s = captured(md_line, escape_cases[_i].in);
	ck_assert_str_eq(s, escape_cases[_i].md);
	free(s);
}
END_TEST

/* The stderr filter: controls made visible, a character cut between writes kept whole. */
START_TEST(filter_stream)
{
	int fds[2];
	char out[256];

	ck_assert_int_eq(pipe(fds), 0);
	FILE *f = text_filter_stream(fds[1]);
	ck_assert_ptr_nonnull(f);
	setvbuf(f, NULL, _IONBF, 0); /* every fputs reaches the filter on its own */
	fputs("bell\x07 esc\x1b[1m caf\xc3", f);
	fputs("\xa9 \xe2\x82", f);
	fputs("\xac bad\xff\n", f);
	fputs("\xe2", f);
	fclose(f);
	close(fds[1]);
	ssize_t n = read(fds[0], out, sizeof(out) - 1);
	close(fds[0]);
	ck_assert_int_gt(n, 0);
	out[n] = '\0';
	ck_assert_str_eq(out, "bell^G esc^[[1m caf\xc3\xa9 \xe2\x82\xac bad" FFFD "\n" FFFD);
}
END_TEST

/* The line reader: numbers every line, cuts comments only where one can start, trims. */
START_TEST(line_reader)
{
	char text[] = "# a comment\n"
		      "\n"
		      "name = Bench#1 ; a comment\r\n"
		      "  fg=#ff8800   # a comment after a blank\n"
		      "\tcontinued ; here\n"
		      "no equals sign\n"
		      "last=";
	struct lines l;
	char *s, *k, *v;

	lines_init(&l, text, "#;");
	ck_assert_str_eq(s = lines_next(&l), "name = Bench#1");
	ck_assert_uint_eq(l.lineno, 3);
	ck_assert(!l.indented);
	ck_assert(lines_split(s, &k, &v));
	ck_assert_str_eq(k, "name");
	ck_assert_str_eq(v, "Bench#1");
	ck_assert_str_eq(s = lines_next(&l), "fg=#ff8800");
	ck_assert_uint_eq(l.lineno, 4);
	ck_assert(l.indented);
	ck_assert(lines_split(s, &k, &v));
	ck_assert_str_eq(v, "#ff8800");
	ck_assert_str_eq(lines_next(&l), "continued");
	ck_assert_uint_eq(l.lineno, 5);
	ck_assert_str_eq(s = lines_next(&l), "no equals sign");
	ck_assert(!lines_split(s, &k, &v));
	ck_assert_str_eq(s = lines_next(&l), "last=");
	ck_assert_uint_eq(l.lineno, 7);
	ck_assert(lines_split(s, &k, &v));
	ck_assert_str_eq(v, "");
	ck_assert_ptr_null(lines_next(&l));
	ck_assert_ptr_null(lines_next(&l));

	/* ';' is a comment only for the files that say so */
	char two[] = "a = x ;y\n";
	lines_init(&l, two, "#");
	ck_assert_str_eq(lines_next(&l), "a = x ;y");
}
END_TEST

/* The string builder: grows across appends, hands its string over once, empty when unused. */
START_TEST(string_builder)
{
	struct strbuf b = {0};
	char *s;

	s = strbuf_take(&b);
	ck_assert_str_eq(s, "");
	free(s);
	for (unsigned i = 0; i < 1000; i++)
		strbuf_add(&b, "%u,", i % 10);
	ck_assert_uint_eq(b.len, 2000);
	strbuf_add(&b, "%s", "end");
	s = strbuf_take(&b);
	ck_assert_uint_eq(strlen(s), 2003);
	ck_assert_int_eq(strncmp(s, "0,1,2,", 6), 0);
	ck_assert_str_eq(s + 2000, "end");
	ck_assert_ptr_null(b.s);
	ck_assert_uint_eq(b.len, 0);
	free(s);
}
END_TEST

/* Columns of text as the TUI counts them (wcwidth), whatever the caller's locale. */
static const struct {
	const char *s;
	size_t cols;
} width_cases[] = {
	{"drive", 5},
	{"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 6},	/* 日本語: wide */
	{"\xef\xbc\xa1" "1", 3},			/* fullwidth A, then 1 */
	{"e\xcc\x81t\xc3\xa9", 3},			/* e + combining acute, t, é */
	{"\xf0\x9f\x99\x82ok", 4},			/* an emoji: wide */
	{"\xef\xbd\xb6\xef\xbe\x80", 2},		/* halfwidth katakana */
};

START_TEST(columns)
{
	const char *s = width_cases[_i].s;
	wchar_t w[64];

	ck_assert_uint_eq(text_width(s), width_cases[_i].cols);
	/* the same as wcwidth in a UTF-8 locale, the TUI's */
	if (setlocale(LC_CTYPE, "C.UTF-8")) {
		size_t n = mbstowcs(w, s, 64);
		int cols = 0;
		ck_assert_uint_ne(n, (size_t)-1);
		for (size_t i = 0; i < n; i++)
			cols += wcwidth(w[i]) < 0 ? 1 : wcwidth(w[i]);
		ck_assert_int_eq(cols, (int)width_cases[_i].cols);
		ck_assert_uint_eq(text_width(s), width_cases[_i].cols);
		setlocale(LC_CTYPE, "C");
	}
}
END_TEST

/* A path's last part, as the TUI's status lines name files. */
START_TEST(base_name)
{
	ck_assert_str_eq(text_base_name("/srv/results/run.json"), "run.json");
	ck_assert_str_eq(text_base_name("run.json"), "run.json");
	ck_assert_str_eq(text_base_name("dir/"), "");
	ck_assert_str_eq(text_base_name(""), "");
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, utf8_valid_and_repair, 0,
			    (int)(sizeof(utf8_cases) / sizeof(utf8_cases[0])));
	tcase_add_test(tc, cut_on_boundaries);
	tcase_add_test(tc, fix_in_place);
	tcase_add_loop_test(tc, escaping, 0, (int)(sizeof(escape_cases) / sizeof(escape_cases[0])));
	tcase_add_test(tc, filter_stream);
	tcase_add_test(tc, line_reader);
	tcase_add_test(tc, string_builder);
	tcase_add_test(tc, base_name);
	tcase_add_loop_test(tc, columns, 0, (int)(sizeof(width_cases) / sizeof(width_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(text_suite)
