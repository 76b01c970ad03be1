import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { Box, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useNavigate } from 'react-router';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { SEARCH_LIMITS, searchPaths } from '@studybuddy/shared/search';
import { SEARCH_INPUT_ATTRIBUTE, takeSearchRequest } from '../../lib/search-shortcut.ts';
import { searchApi, searchKeys } from './search-api.ts';
import { SearchOptionContent } from './search-option.tsx';
import { groupResults, type SearchOption } from './search-options.ts';

/** Where a result opens. */
function pathOf(o: SearchOption): string {
  switch (o.kind) {
    case 'people':
      return o.hit.friend ? searchPaths.friend(o.hit.uid) : searchPaths.student(o.hit);
    case 'groups':
      return searchPaths.group(o.hit);
    case 'messages':
      return searchPaths.message(o.hit);
    case 'coursework':
      return searchPaths.coursework(o.hit);
    case 'documents':
      return searchPaths.document(o.hit);
  }
}

/**
 * The one search box (issue 17): results as the student types, grouped by kind, with the matched words marked.
 * A combobox: the focus stays in the input, the arrows move through the results (aria-activedescendant), Enter
 * opens the one chosen, Escape closes.
 */
export default function SearchDialog({
  opened,
  onClose,
}: {
  opened: boolean;
  /** `chosen`: a result was opened (the focus moves on with it); otherwise the launcher gives the focus back. */
  onClose: (chosen?: 'chosen') => void;
}) {
  const navigate = useNavigate();
  const isMobile = useMediaQuery(`(max-width: ${LIMITS.mobileBreakpointPx}px)`);
  const ids = useId();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), SEARCH_LIMITS.debounceMs);
  const search = useQuery({
    queryKey: searchKeys.query(debounced),
    queryFn: () => searchApi.search(debounced),
    enabled: opened && debounced.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const results = q.trim() ? search.data : undefined;
  const { groups, flat } = groupResults(results);
  const [active, setActive] = useState(0);
  // New results: the first one is the active one again.
  const [shownFor, setShownFor] = useState(results);
  if (shownFor !== results) {
    setShownFor(results);
    setActive(0);
  }
  const optionId = (i: number) => `${ids}-option-${i}`;

  useEffect(() => {
    if (opened && flat.length) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  });

  const choose = (o: SearchOption) => {
    onClose('chosen');
    void navigate(pathOf(o));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!flat.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + flat.length) % flat.length);
    } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      e.preventDefault();
      const option = flat[active];
      if (option) choose(option);
    }
  };

  const typed = q.trim();
  const status = !typed
    ? MSG.search.typeToSearch
    : search.isError
      ? MSG.search.failed
      : typed !== debounced || (search.isFetching && !search.data)
        ? MSG.search.searching
        : flat.length === 0
          ? MSG.search.noResults(typed)
          : MSG.search.results(flat.length);

  return (
    <>
      <Modal
        opened={opened}
        onClose={() => onClose()}
        title={MSG.search.dialogTitle}
        size="lg"
        fullScreen={isMobile}
        closeButtonProps={{ 'aria-label': MSG.search.close }}
        returnFocus={false}
        yOffset="8vh"
      >
        <Stack gap="xs">
          <TextInput
            data-autofocus
            {...{ [SEARCH_INPUT_ATTRIBUTE]: '' }}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            // Opened by Ctrl+K: what was typed before the box was there is its text.
            onFocus={() => {
              const typedBefore = takeSearchRequest();
              if (typedBefore) setQ(typedBefore.slice(0, SEARCH_LIMITS.queryMaxChars));
            }}
            onKeyDown={onKeyDown}
            maxLength={SEARCH_LIMITS.queryMaxChars}
            placeholder={MSG.search.placeholder}
            leftSection={<Search size={16} aria-hidden />}
            size="md"
            role="combobox"
            aria-label={MSG.search.label}
            aria-expanded={flat.length > 0}
            aria-controls={`${ids}-results`}
            aria-autocomplete="list"
            aria-activedescendant={flat.length ? optionId(active) : undefined}
            autoComplete="off"
            spellCheck={false}
          />
          <Text size="sm" c="dimmed" role="status" aria-live="polite">
            {status}
          </Text>
          {flat.length > 0 && (
            <ScrollArea.Autosize mah={isMobile ? 'calc(100dvh - 210px)' : '60vh'} type="auto">
              <Box role="listbox" id={`${ids}-results`} aria-label={MSG.search.resultsLabel}>
                {groups.map((g) => (
                  <Box
                    component="ul"
                    key={g.kind}
                    role="group"
                    aria-labelledby={`${ids}-${g.kind}`}
                    p={0}
                    m={0}
                    mb="xs"
                    style={{ listStyle: 'none' }}
                  >
                    <Text
                      component="li"
                      role="presentation"
                      id={`${ids}-${g.kind}`}
                      size="xs"
                      fw={700}
                      tt="uppercase"
                      c="dimmed"
                      px="xs"
                      py={4}
                    >
                      {g.label}
                    </Text>
                    {g.options.map(({ option, index }) => (
                      <Box
                        component="li"
                        key={`${option.kind}:${option.key}`}
                        id={optionId(index)}
                        role="option"
                        aria-selected={index === active}
                        data-kind={option.kind}
                        px="xs"
                        py={6}
                        style={{
                          cursor: 'pointer',
                          borderRadius: 'var(--mantine-radius-md)',
                          backgroundColor: index === active ? 'var(--mantine-primary-color-light)' : undefined,
                        }}
                        onMouseMove={() => index !== active && setActive(index)}
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => choose(option)}
                      >
                        <SearchOptionContent option={option} />
                      </Box>
                    ))}
                  </Box>
                ))}
              </Box>
            </ScrollArea.Autosize>
          )}
          {!isMobile && (
            <Text size="xs" c="dimmed">
              {MSG.search.keyboardHint}
            </Text>
          )}
        </Stack>
      </Modal>
    </>
  );
}
