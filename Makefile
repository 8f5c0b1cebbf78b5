# drivebench — see README.md. `make help` lists the targets.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/drivebench
DOCDIR  ?= $(PREFIX)/share/doc/drivebench
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
DESTDIR ?=
CC      ?= cc
# CPPFLAGS, CFLAGS and LDFLAGS from the command line or the environment (dpkg-buildflags)
# come after the project's own flags on every compile and link
CFLAGS  ?= -O2 -g
PKG_CONFIG ?= pkg-config

LIBS_CORE := liburing libudev libpci json-c libnvme blkid
LIBS_UI   := ncursesw
# compare --charts renders PNGs with librsvg over cairo: the headless front end only
LIBS_CHARTS := librsvg-2.0 cairo
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
	-Wno-missing-field-initializers -Wno-format-truncation -Wno-unknown-warning-option
ifeq ($(CI),true)
WARN += -Werror
endif
# The core (src/) is a folder per layer, each compiled with the include paths of itself
# and the layers below it only (docs/DESIGN.md, "Module map"):
#   base  <-  engine  <-  drive, results  <-  method  <-  cli/, ui/ (the front ends)  <-  main.c
# so an include of a higher layer, of a front end or of curses in the core does not build,
# nor one front end's include of the other's headers.
# No path of the tree is compiled into the program (the data directory comes from
# $(BUILD)/config.h; -ffile-prefix-map keeps the tree out of __FILE__ and the debug info),
# so two builds in two directories give the same binary. The test programs alone know
# the tree: DB_SRCDIR, for their fixtures.
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread $(WARN) -ffile-prefix-map=$(CURDIR)=.
LAYERS := base engine drive results method
LAYER_base := base
LAYER_engine := base engine
LAYER_drive := base engine drive
LAYER_results := base engine results
LAYER_method := base engine drive results method
CORE_PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_CORE) 2>/dev/null)
DB_CFLAGS := $(BASE_CFLAGS) $(LAYERS:%=-Isrc/%) \
	$(shell $(PKG_CONFIG) --cflags $(LIBS_CORE) $(LIBS_UI) 2>/dev/null)
DB_LDLIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_CORE) 2>/dev/null) -lm -pthread
UI_LDLIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_UI) 2>/dev/null)
CHARTS_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_CHARTS) 2>/dev/null)
CHARTS_LDLIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_CHARTS) 2>/dev/null)
CHECK_LDLIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null)
# the tests (and the health sampler's bench) that fake an NVMe controller behind
# umockdev's ioctl handlers
UMOCKDEV_TESTS := check_health check_erase bench_health
UMOCKDEV_CFLAGS := $(shell $(PKG_CONFIG) --cflags umockdev-1.0 2>/dev/null)
UMOCKDEV_LIBS := $(shell $(PKG_CONFIG) --libs umockdev-1.0 2>/dev/null)

BUILD ?= build
ifeq ($(V),1)
Q :=
else
Q := @
endif

# The core library is everything in src/; the front ends are cli/ (the headless commands)
# and ui/ (the TUI), which main.c, the one dispatcher, picks between.
CORE_SRC := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
CLI_SRC  := $(wildcard cli/*.c)
UI_SRC   := $(wildcard ui/*.c)
TEST_SRC := $(wildcard tests/check_*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
BIN_OBJ  := $(BUILD)/main.o $(CLI_SRC:%.c=$(BUILD)/%.o) $(UI_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
# small programs the shell tests start (tests/helper_*.c), linked with the libraries alone
HELPERS  := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/helper_*.c))
LIB      := $(BUILD)/libdrivebench.a
UI_LIB   := $(BUILD)/libdrivebench-ui.a
BIN      := $(BUILD)/drivebench

.PHONY: all tests deps run check check-vm check-package stress test bench install uninstall asan fuzz \
	clean help format print-cflags print-libs FORCE
# keep the test programs' objects, so the next make relinks nothing that did not change
.SECONDARY:
# `all` is the program alone; `tests` adds the test programs (check, umockdev), which
# `check`, `asan` and `bench` build
all: $(BIN)
tests: $(BIN) $(TESTS) $(HELPERS)

help:
	@echo "make run | check | check-vm | check-package | stress | bench | install | uninstall | asan | fuzz | clean   (V=1 for commands)"

# The data directory is compiled in from a generated header, rewritten only when its text
# changes: a new PREFIX or DATADIR rebuilds src/base/datadir.c and the man pages, nothing else.
CONFIG_H := $(BUILD)/config.h
$(CONFIG_H): FORCE
	@mkdir -p $(dir $@)
	$(Q)printf '#define DB_DATADIR "%s"\n' '$(DATADIR)' >$@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/src/base/datadir.o: $(CONFIG_H)
$(BUILD)/src/base/datadir.o: GEN_INC := -I$(BUILD)
$(BUILD)/tests/%.o: TEST_CPPFLAGS := -DDB_SRCDIR='"$(CURDIR)"'

deps:
	$(Q)scripts/deps.sh build

$(foreach l,$(LAYERS),$(eval $(BUILD)/src/$(l)/%.o: LAYER_INC := $(LAYER_$(l):%=-Isrc/%)))
$(BUILD)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(LAYER_INC) $(GEN_INC) $(CORE_PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS) \
		-MMD -MP -c -o $@ $<

# The front ends: each sees its own headers and the core's, never the other's (what they
# share is in src/base); main.c, the one dispatcher, and the tests see both.
FRONT_INC := -Icli -Iui
$(BUILD)/cli/%.o: FRONT_INC := -Icli
$(BUILD)/ui/%.o: FRONT_INC := -Iui
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(DB_CFLAGS) $(FRONT_INC) $(TEST_CPPFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP \
		-c -o $@ $<

$(LIB): $(CORE_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(BIN_OBJ) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BIN_OBJ) $(LIB) $(UI_LDLIBS) $(CHARTS_LDLIBS) \
		$(DB_LDLIBS)

$(UI_LIB): $(UI_SRC:%.c=$(BUILD)/%.o)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# the TUI's unit tests link its modules through their headers, with curses
$(BUILD)/tests/check_ui_%: $(BUILD)/tests/check_ui_%.o $(UI_LIB) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(UI_LIB) $(LIB) $(CHECK_LDLIBS) $(UI_LDLIBS) \
		$(DB_LDLIBS)

$(BUILD)/cli/cli_charts.o: DB_CFLAGS += $(CHARTS_CFLAGS)
$(UMOCKDEV_TESTS:%=$(BUILD)/tests/%.o): DB_CFLAGS += $(UMOCKDEV_CFLAGS)
$(UMOCKDEV_TESTS:%=$(BUILD)/tests/%): CHECK_LDLIBS += $(UMOCKDEV_LIBS)

$(BUILD)/tests/helper_%: $(BUILD)/tests/helper_%.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(DB_LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(CHECK_LDLIBS) $(DB_LDLIBS)

# `make run`: install what is missing, build, start the TUI on the built-in scratch target,
# with the tree's presets, themes and specs.
run:
	$(Q)scripts/deps.sh build
	$(Q)$(MAKE) --no-print-directory all
	DRIVEBENCH_DATADIR=$(CURDIR) $(BIN)

# `make check`: install what is missing, build, run every test (unit, integration, TUI).
check:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)scripts/layers.sh
	$(Q)scripts/sizes.sh
	$(Q)BUILD=$(BUILD) tests/run-tests.sh

# `make stress`: the soak and stress runs (minutes under CPU hogs), kept out of `make check`.
stress:
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)DRIVEBENCH_STRESS=1 CK_RUN_CASE=stress BUILD=$(BUILD) TESTS="check_runner" \
		tests/run-tests.sh

# `make check-vm`: the lab in a box (docs/DESIGN.md, "The lab"): real NVMe, SATA and SCSI
# drivers over QEMU's controllers, in a Debian guest booted under TCG.
check-vm:
	$(Q)scripts/deps.sh vm
	$(Q)$(MAKE) --no-print-directory $(BIN)
	$(Q)DATADIR=$(DATADIR) DRIVEBENCH_BIN=$(BIN) scripts/vm/run.sh $(BUILD)/vm

# `make check-package`: the Debian package built from a clean copy of the tree, checked,
# installed, run and removed; a second build elsewhere must give the same binary.
check-package:
	$(Q)scripts/deps.sh package
	$(Q)scripts/package-test.sh

bench:
	$(Q)scripts/deps.sh bench
	$(Q)$(MAKE) --no-print-directory $(BIN) $(BUILD)/tests/bench_health $(BUILD)/tests/bench_library
	$(Q)BUILD=$(BUILD) DRIVEBENCH_DATADIR=$(CURDIR) scripts/bench.sh

asan:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" tests
	$(Q)BUILD=build-asan ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		tests/run-tests.sh

fuzz:
	$(Q)scripts/deps.sh build fuzz
	$(Q)BUILD=build-fuzz scripts/fuzz.sh $(FUZZ_SECONDS)

# The man pages as installed: their FILES sections name the real data directory.
MAN1 := $(wildcard man/*.1)
MAN5 := $(wildcard man/*.5)
MAN_GEN := $(MAN1:%=$(BUILD)/%) $(MAN5:%=$(BUILD)/%)
$(BUILD)/man/%: man/% $(CONFIG_H)
	@mkdir -p $(dir $@)
	$(Q)sed 's|/usr/local/share/drivebench|$(DATADIR)|g' $< >$@

DATA := $(wildcard presets/*.preset themes/*.theme specs/*.spec)
DOCS := README.md docs/DESIGN.md
# completion/ holds the shell completions: drivebench.bash and _drivebench (zsh)
COMPLETION := $(wildcard completion/drivebench.bash completion/_drivebench)

install: $(BIN) $(MAN_GEN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(DATADIR)/presets $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(DATADIR)/specs \
		$(DESTDIR)$(DOCDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/drivebench
	install -m 644 $(MAN1:%=$(BUILD)/%) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN5:%=$(BUILD)/%) $(DESTDIR)$(MANDIR)/man5/
	install -m 644 $(filter presets/%,$(DATA)) $(DESTDIR)$(DATADIR)/presets/
	install -m 644 $(filter themes/%,$(DATA)) $(DESTDIR)$(DATADIR)/themes/
	install -m 644 $(filter specs/%,$(DATA)) $(DESTDIR)$(DATADIR)/specs/
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
ifneq ($(filter completion/drivebench.bash,$(COMPLETION)),)
	install -D -m 644 completion/drivebench.bash $(DESTDIR)$(BASHCOMPDIR)/drivebench
endif
ifneq ($(filter completion/_drivebench,$(COMPLETION)),)
	install -D -m 644 completion/_drivebench $(DESTDIR)$(ZSHCOMPDIR)/_drivebench
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/drivebench $(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%) \
		$(MAN5:man/%=$(DESTDIR)$(MANDIR)/man5/%) $(DATA:%=$(DESTDIR)$(DATADIR)/%) \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS))) \
		$(DESTDIR)$(BASHCOMPDIR)/drivebench $(DESTDIR)$(ZSHCOMPDIR)/_drivebench
	-rmdir $(DESTDIR)$(DATADIR)/presets $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(DATADIR)/specs \
		$(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR) 2>/dev/null

print-cflags:
	@echo $(DB_CFLAGS) $(FRONT_INC)
print-libs:
	@echo $(DB_LDLIBS)

format:
	clang-format -i main.c src/*/*.[ch] cli/*.[ch] ui/*.[ch] tests/*.[ch]

clean:
	rm -rf build build-asan build-fuzz

# the compiler's dependency files (not the lab guest's tree, whose udev has rules.d/)
-include $(shell find $(BUILD) -path '$(BUILD)/vm' -prune -o -name '*.d' -type f -print 2>/dev/null)
