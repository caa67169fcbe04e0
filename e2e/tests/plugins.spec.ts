import { button, dialogOpened, expect, routePage, signIn, test } from '../support/test.ts';

/**
 * Issue "Data out", plugins: a manager saves a transform plugin (a JSONata expression) on the data
 * plugins page, tries it in the test-run box on a message (the converted speed comes back), sees a
 * filter drop the message, and a malformed expression refused with its message, not run.
 */
test('a manager saves a transform plugin and test-runs it on an input in the console', async ({ page, admin }) => {
  const name = `kmh-to-ms-${Math.random().toString(36).slice(2, 6)}`;
  await signIn(page, admin, '/Container/PluginManager');
  await expect(page).toHaveTitle(/^数据服务 - /);
  const view = routePage(page, '/Container/PluginManager');

  await view.getByTestId('add-plugin').click();
  const form = page.getByRole('dialog', { name: '新建插件' });
  await dialogOpened(form);
  await form.getByTestId('plugin-name').fill(name);
  await form.getByTestId('plugin-expression').fill('(');
  await form.getByRole('button', { name: button('确定') }).click();
  // The server compiles the expression before it stores it.
  await expect(form.getByText('表达式不是有效的 JSONata')).toBeVisible();
  await form.getByTestId('plugin-expression').fill('{"speed_ms": data.signals[signal="speed"].values.($ / 3.6)}');
  await form.getByRole('button', { name: button('确定') }).click();
  await expect(form).toBeHidden();
  const row = view.getByTestId('plugin-table').locator('tbody tr.ant-table-row').filter({ hasText: name });
  await expect(row).toContainText('转换');

  // The saved expression goes into the test-run box; the sample input is a signals message.
  await row.getByRole('button', { name: '试运行' }).click();
  const box = view.getByTestId('plugin-test-box');
  await expect(box.getByTestId('plugin-test-expression')).toHaveValue(/speed_ms/);
  await box
    .getByTestId('plugin-test-input')
    .fill(JSON.stringify({ kind: 'signals', data: { signals: [{ signal: 'speed', unit: 'km/h', values: [36, 90] }] } }));
  await box.getByTestId('plugin-test-run').click();
  const output = box.getByTestId('plugin-test-output');
  await expect(output).toBeVisible();
  expect(JSON.parse((await output.textContent()) ?? '')).toEqual({ speed_ms: [10, 25] });
  await expect(box.getByText('保留')).toBeVisible();

  // A filter that yields false drops the message.
  await box.getByTestId('plugin-test-expression').fill('kind = "frames" ? data : false');
  await box.getByTestId('plugin-test-run').click();
  await expect(box.getByText('丢弃')).toBeVisible();
  await expect(output).toContainText('无结果');

  // A malformed expression is refused with its message.
  await box.getByTestId('plugin-test-expression').fill('data.(');
  await box.getByTestId('plugin-test-run').click();
  await expect(box.getByTestId('plugin-test-error')).toContainText('表达式不是有效的 JSONata');
});
