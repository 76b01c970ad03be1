import { Menu, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';

const CHOICES: MantineColorScheme[] = ['light', 'dark', 'auto'];
const isScheme = (value: string): value is MantineColorScheme => (CHOICES as string[]).includes(value);

/** The account menu's Light / Dark / System choice (menu radio items), kept by this browser. */
export function ColorSchemeItems() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <>
      <Menu.Label>{MSG.shell.colorScheme}</Menu.Label>
      <Menu.RadioGroup value={colorScheme} onChange={(value) => isScheme(value) && setColorScheme(value)}>
        {CHOICES.map((value) => (
          <Menu.RadioItem key={value} value={value}>
            {MSG.shell.colorSchemes[value]}
          </Menu.RadioItem>
        ))}
      </Menu.RadioGroup>
    </>
  );
}
